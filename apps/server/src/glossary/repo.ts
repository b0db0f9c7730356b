import type { GlossaryEntry, GlossaryResponse } from '@xtalk/protocol';
import type { Db } from '../store/index.js';

/**
 * A room's glossary: one row per room holding the whole list, replaced whole by every change (the PUT
 * sends the whole list), with a version that grows by one each time. Only the glossary module touches it.
 */
export function createGlossaryRepo(db: Db) {
  return {
    async read(roomId: string): Promise<GlossaryResponse> {
      const { rows } = await db.query<{ version: number | string; entries: GlossaryEntry[] | string }>(
        'select version, entries from room_glossaries where room_id = $1',
        [roomId],
      );
      const row = rows[0];
      if (!row) return { version: 0, entries: [] };
      const entries =
        typeof row.entries === 'string' ? (JSON.parse(row.entries) as GlossaryEntry[]) : row.entries;
      return { version: Number(row.version), entries };
    },

    /** Replaces the room's list; resolves to the new version. */
    async replace(roomId: string, entries: GlossaryEntry[], userId: string): Promise<number> {
      const { rows } = await db.query<{ version: number | string }>(
        `insert into room_glossaries (room_id, version, entries, updated_by) values ($1, 1, $2::jsonb, $3)
         on conflict (room_id) do update set version = room_glossaries.version + 1,
           entries = excluded.entries, updated_by = excluded.updated_by, updated_at = now()
         returning version`,
        [roomId, JSON.stringify(entries), userId],
      );
      return Number(rows[0]!.version);
    },
  };
}
export type GlossaryRepo = ReturnType<typeof createGlossaryRepo>;
