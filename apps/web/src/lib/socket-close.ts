import { CloseCode } from '@xtalk/protocol';

/*
 * What the room client (socket-client.ts) does after the server closed its socket. A close with 1000 ends
 * it. A close with 1012 (the node drains for a restart) is a handover: a new session at once, to whichever
 * node answers, resumed by offset, with nothing shown. A 4400 that names older versions is a node of a
 * rolling deploy and is handed over too before this is asked (docs/decisions/0146); any other 4400 means
 * this page is older than the server: no retry, the person is asked to reload. A 4002 (SignedOut) means
 * the session of the token ended on the server: no retry, the person is signed out (0195). Any other
 * close retries.
 */

/** The code a browser reports for a connection that ended without a close frame (RFC 6455 7.1.5). */
export const CLOSED_ABNORMALLY = 1006;

export type AfterClose = 'handover' | 'idle' | 'disconnected' | 'reconnecting';

export function afterClose(code: number): AfterClose {
  if (code === CloseCode.ServiceRestart) return 'handover';
  if (
    code === CloseCode.Normal ||
    code === CloseCode.TokenExpired ||
    code === CloseCode.SignedOut ||
    code === CloseCode.UnsupportedVersion
  ) {
    return 'idle';
  }
  // Another tab took the session over: retrying by itself would make the tabs fight; wait for a tap.
  if (code === CloseCode.SessionEnded) return 'disconnected';
  return 'reconnecting';
}
