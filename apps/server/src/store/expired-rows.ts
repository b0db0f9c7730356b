import type { Clock } from '../clock.js';

/**
 * Rows that end at `expires_at` are removed now and then in the background, not on the request paths that
 * write them. Each module deletes its own expired rows (its tables are its own); the sweeper only calls
 * them in turn.
 */
export type ExpirySweep = (now: Date) => Promise<void>;

export async function deleteExpiredRows(sweeps: readonly ExpirySweep[], now: Date): Promise<void> {
  for (const sweep of sweeps) await sweep(now);
}

/** Sweeps at once and then every `intervalMs`; `stop` waits for a sweep under way. */
export function startExpirySweeper(
  sweeps: readonly ExpirySweep[],
  clock: Clock,
  intervalMs: number,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = running.then(() => deleteExpiredRows(sweeps, new Date(clock.now()))).catch(onError);
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
