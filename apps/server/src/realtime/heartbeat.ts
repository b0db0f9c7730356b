import type { WebSocket } from 'ws';

/**
 * Pings the socket every `intervalMs`; a peer that did not answer the last ping is gone (network dropped,
 * laptop closed) and is terminated. Returns the function that stops the pings.
 */
export function startHeartbeat(ws: WebSocket, intervalMs: number): () => void {
  let alive = true;
  ws.on('pong', () => (alive = true));
  const timer = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    try {
      ws.ping();
    } catch {
      ws.terminate();
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
