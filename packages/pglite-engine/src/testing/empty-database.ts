import { openPglite } from '../open.js';
import { runSnapshot, writeRunSnapshot } from './run-snapshot.js';

/*
 * A new, empty database as a tarball, made once per run by the engine project's global setup: the tests
 * of what runs on a database (lanes, prepared statements, the wire) start from it instead of each running
 * initdb. The tests of a start from nothing (a data directory initialised in a child process) do not.
 */

const SNAPSHOT_ENV = 'XTALK_ENGINE_TEST_DB_SNAPSHOT';

async function makeEmptySnapshot(): Promise<Uint8Array> {
  const db = await openPglite();
  try {
    return await db.dumpDataDir();
  } finally {
    await db.close();
  }
}

/** The run's empty database, read (or made) once per process. */
export const emptySnapshot = (): Promise<Uint8Array> => runSnapshot(SNAPSHOT_ENV, makeEmptySnapshot);

/** The same, as PGlite's own `loadDataDir` takes it. */
export const emptyDataDir = async (): Promise<Blob> =>
  new Blob([(await emptySnapshot()) as Uint8Array<ArrayBuffer>]);

/** Vitest's global setup for the engine project. */
export default function setup(): Promise<() => void> {
  return writeRunSnapshot(SNAPSHOT_ENV, makeEmptySnapshot);
}
