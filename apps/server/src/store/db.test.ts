import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db.js';

/* The server's embedded database: PGlite on its own thread, sized for a chat server's small tables. */
describe("the server's PGlite", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'xtalk-db-'));
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs with a chat server's small shared memory (decision 0123, decision 0125)", async () => {
    // PGlite zeroes all of its shared memory at start, so every megabyte here is resident from the
    // first second: a small shared_buffers and WAL buffer, and slots for a handful of connections
    const { rows } = await db.query<{ name: string; setting: string }>(
      `select name, setting from pg_settings where name in ('shared_memory_size', 'max_connections')`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, Number(row.setting)]))).toEqual({
      shared_memory_size: 12,
      max_connections: 5,
    });
  });

  it('keeps its files in DATA_DIR/db', async () => {
    const { rows } = await db.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
    expect((await import('node:fs')).existsSync(join(dataDir, 'db', 'PG_VERSION'))).toBe(true);
  });
});
