import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A database a whole test run starts from, made once: a Vitest global setup makes it (initdb and the
 * migrations, seconds) and writes the tarball to a temp file named in an environment variable that the
 * test processes it starts inherit; each process reads the file once, and each test's database is
 * unpacked from it (`openPglite({ snapshot })`). A process started without the variable (the bench, a
 * script, a file run by a tool that skips the global setup) makes its own, once.
 */

/** For a Vitest global setup: makes the snapshot, names its file in `envName`, and removes it at the end. */
export async function writeRunSnapshot(
  envName: string,
  make: () => Promise<Uint8Array>,
): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'xtalk-test-db-'));
  const file = join(dir, 'snapshot.tar');
  writeFileSync(file, await make());
  process.env[envName] = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

const read = new Map<string, Promise<Uint8Array>>();

/** The run's snapshot named in `envName`, read (or made with `make`) once per process. */
export function runSnapshot(envName: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  let snapshot = read.get(envName);
  if (!snapshot) {
    const file = process.env[envName];
    snapshot = file ? Promise.resolve(new Uint8Array(readFileSync(file))) : make();
    read.set(envName, snapshot);
  }
  return snapshot;
}
