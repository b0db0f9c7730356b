/* Steady sending for a run: each sender on its own interval, and waiting for what is still under way. */

/**
 * Calls `send(index)` every `intervalMs` for each of `senders`, each first after a random part of the
 * interval so the sends do not come in waves. Returns the function that stops them all.
 */
export function paceSenders(senders: number, intervalMs: number, send: (index: number) => void): () => void {
  const timers: NodeJS.Timeout[] = [];
  for (let index = 0; index < senders; index += 1) {
    const first = setTimeout(() => {
      send(index);
      timers.push(setInterval(() => send(index), intervalMs));
    }, Math.random() * intervalMs);
    timers.push(first);
  }
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}

/** Polls `done` every `pollMs` until it holds or `timeoutMs` has passed. */
export async function waitUntil(done: () => boolean, timeoutMs: number, pollMs = 50): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
