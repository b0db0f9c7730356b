import type { Db, Queryable } from '../../store/index.js';
import { HttpError } from '../../http-errors.js';
import type { SessionEnds } from '../sessions/ended-sessions.js';
import type { PlayerRecords, RoomNotice } from './player-records.js';

/*
 * Deleting a player (docs/decisions/0213-a-deleted-account-leaves-its-messages-nameless.md): in one
 * transaction, the other modules let go of the person through the port (their messages stay nameless,
 * their ledger and payment records stay under a pseudonym), then accounts removes its own: sign-in
 * links, email identities and their mailed tokens, sessions, one-time codes, the guests merged into the
 * player and the player. After it commits, the rooms they wrote in are told (decision 0245) and every
 * node closes the player's sockets as signed out (decision 0195); their tokens are refused from then on,
 * since no user and no session is left.
 */

/** Accounts' own rows of these players. */
async function removeAccountRows(tx: Queryable, ids: string[]): Promise<void> {
  const { rows } = await tx.query<{ email: string }>(
    'select email from email_accounts where user_id = any($1::text[])',
    [ids],
  );
  await tx.query(
    'delete from email_tokens where email = any($1::text[]) or pending_user_id = any($2::text[])',
    [rows.map((row) => row.email), ids],
  );
  await tx.query('update email_accounts set pending_user_id = null where pending_user_id = any($1::text[])', [
    ids,
  ]);
  await tx.query('delete from email_accounts where user_id = any($1::text[])', [ids]);
  await tx.query('delete from player_links where user_id = any($1::text[])', [ids]);
  await tx.query('delete from sign_in_sessions where user_id = any($1::text[])', [ids]);
  await tx.query('delete from auth_codes where user_id = any($1::text[])', [ids]);
}

export function createPlayerDeletion(deps: { db: Db; records: PlayerRecords; sessionEnds: SessionEnds }) {
  const { db, records, sessionEnds } = deps;
  return {
    /** Bought credits the player would forfeit. */
    unspentPaidCredits: (userId: string) => records.unspentPaidCredits(db, userId),

    /** Deletes the player; 404 when there is none. Returns the bought credits that went with it. */
    async delete(userId: string): Promise<{ unspentPaidCredits: number }> {
      const notices: RoomNotice[] = [];
      const unspent = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string; username: string; display_name: string | null }>(
          `select id, username, display_name from users where (id = $1 and merged_into is null) or merged_into = $1
           order by merged_into nulls first for update`,
          [userId],
        );
        if (rows[0]?.id !== userId) throw new HttpError(404, `No player ${userId}.`);
        const paid = await records.unspentPaidCredits(tx, userId);
        for (const row of rows) {
          notices.push(
            ...(await records.erase(tx, row.id, [row.username, row.display_name ?? ''].filter(Boolean))),
          );
        }
        const ids = rows.map((row) => row.id);
        await removeAccountRows(tx, ids);
        await tx.query('delete from users where id = any($1::text[])', [ids]);
        return paid;
      });
      // the others see the messages lose their name at once, not on their next join
      await records.announce(notices);
      await sessionEnds.announce({ userId });
      return { unspentPaidCredits: unspent };
    },
  };
}
export type PlayerDeletion = ReturnType<typeof createPlayerDeletion>;
