import type { WebSocket } from 'ws';

/** About this long between the heartbeat's ticks: each tick pings one slice of the sockets. */
const TICK_TARGET_MS = 1_000;

/*
 * Pings every socket once per `intervalMs`; a peer that did not answer its last ping by its next turn
 * (network dropped, laptop closed) is terminated. One timer for all of the process's sockets and one shared
 * pong listener, not a timer and a closure per socket (per-connection memory and timers).
 *
 * The sockets are dealt round-robin into `slices` groups and each tick pings one group, so a socket is
 * pinged exactly every `intervalMs` and has that long to answer. Pinging all of them on one tick was a
 * burst of a write per socket, then of a pong read per socket, every 30 s: for 1,000 sockets as much
 * main-thread work as a message fanned out to all of them, landing on whatever chat was under way
 * (docs/decisions/0129-a-heartbeat-in-slices.md).
 */
export function createHeartbeat(
  intervalMs: number,
  slices = Math.max(1, Math.round(intervalMs / TICK_TARGET_MS)),
) {
  const groups = Array.from({ length: slices }, () => new Set<WebSocket>());
  /** Pinged and not answered yet. */
  const waiting = new Set<WebSocket>();
  let nextGroup = 0;
  let due = 0;
  function onPong(this: WebSocket) {
    waiting.delete(this);
  }
  const timer = setInterval(() => {
    const group = groups[due]!;
    due = (due + 1) % slices;
    for (const ws of group) {
      if (waiting.has(ws)) {
        ws.terminate();
        continue;
      }
      waiting.add(ws);
      try {
        ws.ping();
      } catch {
        ws.terminate();
      }
    }
  }, intervalMs / slices);
  timer.unref();
  return {
    add(ws: WebSocket) {
      groups[nextGroup]!.add(ws);
      nextGroup = (nextGroup + 1) % slices;
      ws.on('pong', onPong);
    },
    remove(ws: WebSocket) {
      // a socket is in one group; looking through them all at a close spares a map entry per socket
      for (const group of groups) if (group.delete(ws)) break;
      waiting.delete(ws);
      ws.off('pong', onPong);
    },
    stop: () => clearInterval(timer),
  };
}
export type Heartbeat = ReturnType<typeof createHeartbeat>;
