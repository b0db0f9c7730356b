import { PING_PROTOCOL_VERSION, type ClientFrame } from '@xtalk/protocol';
import {
  PONG_TIMEOUT_MS,
  PROBE_AFTER_MS,
  PROBE_MIN_QUIET_MS,
  createQuietWatch,
  createSilenceWatch,
  type Timers,
} from './socket-timing';

/*
 * Whether the room client's socket is alive (docs/decisions/0139). A socket can die without a close (a
 * phone changes networks, a NAT forgets it) and the browser says nothing for minutes; the server's pings
 * are answered by the browser itself and never reach page code. This watches for it:
 * - the browser going offline: the socket is given up at once, and retried on the backoff;
 * - an answer owed (to the hello or a chat message) and nothing at all heard for `answerTimeoutMs`: a
 *   server that answers `ping` (protocol 5) is asked first, so that a slow answer (a stalled database) is
 *   not taken for a dead socket; otherwise, or when the ping is not answered either, the socket is given up;
 * - a ready socket that has brought nothing for PROBE_AFTER_MS, or the tab or the network coming back: it
 *   is pinged while the page is visible, so a listener who never sends finds a dead socket too.
 * Any frame heard counts: a socket that brings anything is alive.
 */

/** What the liveness watch needs of the client it serves. */
export interface LivenessHost {
  /** Ready: READY came on the current socket. */
  isReady(): boolean;
  isReconnecting(): boolean;
  /** The version the server said in its last READY. */
  serverProtocolVersion(): number;
  /** Sends a text frame on the current socket; false when there is none. */
  sendText(text: string): boolean;
  /** The socket is taken for dead: drop it and reconnect (at once, or on the backoff). */
  lost(retryAtOnce: boolean): void;
  /** The network or the tab is back while reconnecting: retry now. */
  retryNow(): void;
}

export interface LivenessOptions {
  timers: Timers;
  answerTimeoutMs: number;
  /** Where `online`, `offline`, `focus` and `visibilitychange` come from (the window in a browser). */
  events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined;
}

/** Whether the page is hidden (a background tab, a locked phone); never in Node tests without a document. */
function hidden(): boolean {
  return (globalThis as { document?: Document }).document?.visibilityState === 'hidden';
}

const PING = JSON.stringify({ type: 'ping' } satisfies ClientFrame);

export class SocketLiveness {
  private readonly silence: ReturnType<typeof createSilenceWatch>;
  private readonly quiet: ReturnType<typeof createQuietWatch>;
  /** A ping is owed: what is heard next answers it. */
  private pinged = false;
  private watching = false;
  private readonly wake = () => {
    if (this.host.isReconnecting()) this.host.retryNow();
    else if (this.quiet.quietFor() >= PROBE_MIN_QUIET_MS) this.probe();
  };
  private readonly onOffline = () => this.host.lost(false);
  private readonly onVisibility = () => {
    if (!hidden()) this.wake();
  };

  constructor(
    private readonly host: LivenessHost,
    private readonly options: LivenessOptions,
  ) {
    this.silence = createSilenceWatch(options.timers, () => this.silent());
    this.quiet = createQuietWatch(options.timers, PROBE_AFTER_MS, () => this.probe());
  }

  /** Listens to the browser's events (from a join until the leave). */
  watch(on: boolean): void {
    const events = this.options.events;
    if (!events || on === this.watching) return;
    this.watching = on;
    const method = on ? 'addEventListener' : 'removeEventListener';
    events[method]('online', this.wake);
    events[method]('focus', this.wake);
    events[method]('visibilitychange', this.onVisibility);
    events[method]('offline', this.onOffline);
  }

  /** Something the server always answers was sent (the hello, a chat message). */
  answerOwed(): void {
    this.silence.expect(this.options.answerTimeoutMs);
  }

  /** A frame came in on the current socket. */
  heard(): void {
    this.silence.heard();
    this.pinged = false;
    this.quiet.heard();
  }

  /** READY came: quiet spells are watched from now on. */
  ready(): void {
    this.quiet.start();
  }

  /** The socket is gone (closed, dropped or given up): nothing is owed or watched on it any more. */
  reset(): void {
    this.silence.heard();
    this.pinged = false;
    this.quiet.stop();
  }

  /** Asks the socket, unless the page is hidden or an answer is owed already. */
  private probe(): void {
    if (!hidden() && !this.silence.owed()) this.ping();
  }

  /** Pings a ready socket of a server that answers pings; false when there is none such. */
  private ping(): boolean {
    if (!this.host.isReady() || this.host.serverProtocolVersion() < PING_PROTOCOL_VERSION) return false;
    if (!this.host.sendText(PING)) return false;
    this.pinged = true;
    this.silence.expect(PONG_TIMEOUT_MS);
    return true;
  }

  /** An answer did not come in time: ask first when the server answers pings, then give up. */
  private silent(): void {
    if (this.pinged || !this.ping()) this.host.lost(true);
  }
}
