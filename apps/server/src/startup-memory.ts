import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * The main thread's memory at start (issue 13's target for RSS at start; docs/decisions/0119, 0131).
 *
 * Loading the modules, migrating and building the routes keep most of what they allocate, and V8 answers a
 * young generation whose objects survive by doubling it: it stood at ~16 MB, all resident and nearly empty,
 * once the server listened. A full collection does not give it back; V8's memory reducer does, 8 s after
 * the last full collection of an idle heap. Held at its starting size while the server loads, it never
 * grows for the loading. It is let grow again once the server listens, so chat under load keeps the young
 * generation it needs (fewer scavenges).
 */

const GROWTH_FACTOR = 2; // V8's default for --semi-space-growth-factor

export function holdYoungGenerationForStartup(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Called once the server listens: the young generation may grow again, and one full garbage collection
 * drops what the loading left behind. That collection also compacts: without it the old generation kept
 * ~11 MB of partly empty pages resident (31 MB committed for 19 used) until the memory reducer came by.
 * Called once; nothing collects on a timer. `gc` exists only with --expose-gc, so the flag is set just
 * long enough to take the function from a fresh context; the compaction flag only for this collection.
 */
export function settleAfterStartup(): void {
  setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  setFlagsFromString('--no-expose-gc');
  setFlagsFromString('--compact-on-every-full-gc');
  gc?.();
  setFlagsFromString('--no-compact-on-every-full-gc');
}
