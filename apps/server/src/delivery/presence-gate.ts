/**
 * Presence changes against one write-back at a time. A write-back (a swept node writing what it counts
 * into the shared counts again) reads this node's counts once and writes them; a change that counted
 * here but had not reached Redis when they were read would land on top of them and count twice, and one
 * made while they are written would be overwritten. So the write-back waits for the changes under way and
 * holds new ones until it is done: the counts it writes are then exactly what Redis gets.
 */
export interface PresenceGate {
  /** Runs one change (a join, a leave, a listen) once no write-back is under way. */
  change<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `work` once the changes under way are done, holding new ones until it settles. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

export function createPresenceGate(): PresenceGate {
  let busy = 0;
  let idle: Array<() => void> = [];
  let writing: Promise<unknown> | undefined;

  const settled = () => {
    if (busy > 0) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  return {
    async change(work) {
      // checked and counted in one step, so a write-back that starts meanwhile waits for this change
      while (writing) await writing.catch(() => undefined);
      busy += 1;
      try {
        return await work();
      } finally {
        busy -= 1;
        settled();
      }
    },
    async exclusive(work) {
      while (writing) await writing.catch(() => undefined);
      const run = (async () => {
        if (busy > 0) await new Promise<void>((resolve) => idle.push(resolve));
        return work();
      })();
      writing = run;
      try {
        return await run;
      } finally {
        writing = undefined;
      }
    },
  };
}
