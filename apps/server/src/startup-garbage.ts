import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection once the server has started (decision 0119): loading the modules,
 * migrating and building the routes grow V8's young generation, most of it garbage by then, and
 * V8 gives those pages back only some seconds later, on its own schedule. Collected once here, the server
 * is smaller from its first second. Called once per thread (the database thread calls it once
 * PGlite has started: decision 0132); nothing collects on a timer.
 * `gc` exists only with --expose-gc, so the flag is set just long enough to take the function from a
 * fresh context, then cleared again.
 */
export function collectStartupGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  setFlagsFromString('--no-expose-gc');
  gc?.();
}
