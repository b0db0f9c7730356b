import type { WebSocket } from 'ws';

/*
 * Pings every socket every `intervalMs`; a peer that did not answer the last ping is gone (network
 * dropped, laptop closed) and is terminated. One interval for all of the process's sockets and one shared
 * pong listener, not a timer and a closure per socket (issue 13: per-connection memory and timers). A
 * socket added just before a tick is pinged at once and still has a whole interval to answer.
 */
export function createHeartbeat(intervalMs: number) {
  const sockets = new Set<WebSocket>();
  /** Pinged and not answered yet. */
  const waiting = new Set<WebSocket>();
  function onPong(this: WebSocket) {
    waiting.delete(this);
  }
  const timer = setInterval(() => {
    for (const ws of sockets) {
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
  }, intervalMs);
  timer.unref();
  return {
    add(ws: WebSocket) {
      sockets.add(ws);
      ws.on('pong', onPong);
    },
    remove(ws: WebSocket) {
      sockets.delete(ws);
      waiting.delete(ws);
      ws.off('pong', onPong);
    },
    stop: () => clearInterval(timer),
  };
}
export type Heartbeat = ReturnType<typeof createHeartbeat>;
