import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { notNeededOnceRunning, releaseFsBundle, type BundleFs } from './bundle.js';
import { emptyDataDir } from './testing/empty-database.js';

const fsOf = (db: PGlite) => db.Module.FS as unknown as BundleFs;
const exists = (fs: BundleFs, path: string) => {
  try {
    fs.lookupPath(path);
    return true;
  } catch {
    return false;
  }
};
const contentsOf = (fs: BundleFs, path: string) => fs.lookupPath(path).node.contents as Uint8Array;

/*
 * Once PostgreSQL runs, the installation files that only initdb and unused features read are removed and
 * the rest copied out of the 6.2 MB buffer PGlite reads them into, so that buffer can go (decision 0132).
 */
describe("PGlite's file bundle, let go of once PostgreSQL runs", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('detaches the bundle, keeps every remaining file in a buffer of its own, and the database works', async () => {
    const db = await PGlite.create({ loadDataDir: await emptyDataDir() });
    try {
      const fs = fsOf(db);
      const bundle = contentsOf(fs, '/pglite/share/postgresql/postgres.bki').buffer;
      const tokyo = contentsOf(fs, '/pglite/share/postgresql/timezone/Asia/Tokyo').slice();
      const size = bundle.byteLength;
      expect(size).toBeGreaterThan(5_000_000);

      const released = releaseFsBundle(fs);
      expect(released).toMatchObject({ bytes: size });
      expect(released.removed).toBeGreaterThan(50);
      expect(released.kept).toBeGreaterThan(500); // the time zones, mostly
      // detached: PGlite's own reference to it holds no memory any more
      expect(bundle.byteLength).toBe(0);

      // what initdb alone reads is gone; a time zone is kept, byte for byte, in a buffer of its own
      expect(exists(fs, '/pglite/share/postgresql/postgres.bki')).toBe(false);
      expect(exists(fs, '/pglite/lib/postgresql/pgxs')).toBe(false);
      const kept = contentsOf(fs, '/pglite/share/postgresql/timezone/Asia/Tokyo');
      expect(kept).toEqual(tokyo);
      expect(kept.byteLength).toBe(kept.buffer.byteLength);

      // named time zones and PL/pgSQL, which a migration or query may use, still load
      const { rows } = await db.query<{ at: Date }>(
        `select '2026-01-01 00:00'::timestamp at time zone 'Asia/Tokyo' as at`,
      );
      expect(rows[0]?.at.toISOString()).toBe('2025-12-31T15:00:00.000Z');
      await db.exec(`set time zone 'America/New_York'; set time zone 'UTC'`);
      await db.exec('do $$ begin perform 1; end $$');

      // full-text search is a feature the server does not use: its query fails with PostgreSQL's error,
      // and the database goes on serving
      await expect(db.query(`select to_tsvector('english', 'dogs')`)).rejects.toThrow(/dict_snowball/);
      expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);

      // a second call finds no bundle and changes nothing
      expect(releaseFsBundle(fs)).toEqual({ kept: 0, removed: 0, bytes: 0 });
    } finally {
      await db.close();
    }
  });

  it('leaves a data directory alone: what was written there is there after a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtalk-bundle-'));
    dirs.push(dir);
    const first = await PGlite.create(dir, { loadDataDir: await emptyDataDir() });
    releaseFsBundle(fsOf(first));
    await first.exec(`create table notes (body text); insert into notes values ('kept')`);
    await first.close();

    const second = await PGlite.create(dir);
    try {
      expect(releaseFsBundle(fsOf(second)).bytes).toBeGreaterThan(5_000_000);
      expect((await second.query('select body from notes')).rows).toEqual([{ body: 'kept' }]);
    } finally {
      await second.close();
    }
  });

  it('names what goes by rule, and keeps what no rule names', () => {
    for (const path of [
      '/pglite/share/postgresql/postgres.bki',
      '/pglite/share/postgresql/system_views.sql',
      '/pglite/share/postgresql/extension/plpgsql.control',
      '/pglite/lib/postgresql/pgxs/src/Makefile.global',
      '/pglite/lib/postgresql/utf8_and_sjis.so',
      '/pglite/lib/postgresql/dict_snowball.so',
      '/pglite/icu/icudt76l/coll/root.res',
      '/pglite/locale-a',
    ])
      expect(notNeededOnceRunning(path), path).toBe(true);
    for (const path of [
      '/pglite/share/postgresql/timezone/Asia/Tokyo',
      '/pglite/share/postgresql/timezonesets/Default',
      '/pglite/lib/postgresql/plpgsql.so',
      '/pglite/share/postgresql/postgresql.conf.sample',
      '/pglite/bin/postgres',
      '/home/postgres/.pgpass',
      '/pglite/share/postgresql/something-new.txt',
    ])
      expect(notNeededOnceRunning(path), path).toBe(false);
  });
});
