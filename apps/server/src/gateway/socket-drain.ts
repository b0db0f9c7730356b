import { CloseCode } from '@xtalk/protocol';
import type { WebSocket } from 'ws';

/*
 * A drain's socket closes (decision 0144): each socket is closed with 1012 once its connection has stored
 * what it received, at an even pace over the drain window, so the clients of a large node do not all
 * come back in the same second.
 */

export const RESTART_REASON = 'Server is restarting; reconnect.';
/**
 * What a socket or join asking a draining node is told: another node (or this one, restarted) takes it,
 * after `retry-after` seconds.
 */
export const DRAINING_REFUSAL = {
  status: 503,
  message: 'Server is restarting; try again.',
  code: 'unavailable',
  retryAfterSeconds: 1,
} as const;
/**
 * The longest a drain spends per socket: a node with few sockets closes them within a second or so, one
 * with many spreads them over the whole drain window.
 */
const MAX_CLOSE_GAP_MS = 100;
/** Closes due within this long of each other go together (one timer per slice, not per socket). */
const CLOSE_SLICE_MS = 20;

/** How long a drain of `count` sockets takes at most: `spreadMs`, shorter for a few sockets. */
export function drainSpanMs(spreadMs: number, count: number): number {
  return Math.min(spreadMs, count * MAX_CLOSE_GAP_MS);
}

/** Closes one socket with 1012 once `settled`; a socket that does not answer is gone within 2 s. */
async function closeForRestart(ws: WebSocket, settled: Promise<void>): Promise<void> {
  await settled.catch(() => undefined);
  if (ws.readyState === ws.CLOSED) return;
  await new Promise<void>((resolve) => {
    ws.once('close', () => resolve());
    ws.close(CloseCode.ServiceRestart, RESTART_REASON);
    setTimeout(() => {
      ws.terminate();
      resolve();
    }, 2000).unref();
  });
}

/** Closes every socket over at most `spreadMs`; resolves once all are closed. */
export async function closeSpread<Peer>(
  sockets: [WebSocket, Peer][],
  spreadMs: number,
  settled: (peer: Peer) => Promise<void>,
): Promise<void> {
  const spanMs = drainSpanMs(spreadMs, sockets.length);
  const started = Date.now();
  const closed: Promise<void>[] = [];
  for (const [index, [ws, peer]] of sockets.entries()) {
    const wait = started + (index * spanMs) / sockets.length - Date.now();
    if (wait >= CLOSE_SLICE_MS) await new Promise((resolve) => setTimeout(resolve, wait));
    closed.push(closeForRestart(ws, settled(peer)));
  }
  await Promise.all(closed);
}
