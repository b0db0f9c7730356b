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

const BLOCK = 512;

/**
 * A database's tarball (`dumpDataDir`) without the other databases of its cluster (template0 and
 * template1): a test's database is unpacked from the snapshot file by file, and those two are more than
 * half of the files, never opened by the app, whose statements all run in the database it started in
 * (decision 0240).
 */
export async function dumpWithoutOtherDatabases(db: {
  query<Row extends object>(sql: string): Promise<{ rows: Row[] }>;
  dumpDataDir(): Promise<Uint8Array>;
}): Promise<Uint8Array> {
  const { rows } = await db.query<{ oid: number }>(
    `select oid::int as oid from pg_database where datname <> current_database()`,
  );
  const others = rows.map(({ oid }) => `base/${oid}/`);
  const tarball = await db.dumpDataDir();
  const kept: Uint8Array[] = [];
  for (let at = 0; at + BLOCK <= tarball.length;) {
    const header = tarball.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const field = (from: number, length: number) =>
      new TextDecoder().decode(header.subarray(from, from + length)).replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const end = at + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const path = name.replace(/^\/+/, '');
    if (!others.some((dir) => path === dir.slice(0, -1) || path.startsWith(dir)))
      kept.push(tarball.subarray(at, end));
    at = end;
  }
  kept.push(new Uint8Array(BLOCK * 2));
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of kept) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
