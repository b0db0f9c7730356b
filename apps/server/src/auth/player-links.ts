import { randomBytes, randomUUID } from 'node:crypto';
import { SIGN_IN_PROVIDERS, type LinkProvider, type PlayerLink } from '@xtalk/protocol';
import type { Db, Queryable } from '../store/db.js';
import type { UserRow } from './users-repo.js';

/*
 * One player, several sign-ins (spec section 7, link/unlink). `player_links` maps every identity (an OIDC
 * subject, an email, a wallet address, a Telegram id, the guest identity the player began as, an
 * app-store account) to one user row; signing in with any of them finds that row, so room history,
 * username and usage stay with the player. See docs/decisions/0050-linked-sign-ins.md.
 */

export interface Identity {
  provider: LinkProvider;
  subject: string;
  /** The OIDC issuer (`ggl`) or the store (`store`); empty otherwise. */
  issuer?: string;
}

/** The identity is held by another player; linking it here would take it from them. */
export class LinkConflictError extends Error {}
/** The last sign-in of a player cannot be removed: they could never sign in again. */
export class LastSignInError extends Error {}

const USER_COLUMNS = 'u.id, u.provider, u.subject, u.username, u.display_name, u.name';
/** What a signed-in account's username is until its owner picks one (see users-repo). */
const UNCHOSEN_MEMBER_NAME = /^u-[0-9a-f]{12}$/;

export function createPlayerLinks(db: Db) {
  async function findUser(q: Queryable | Db, identity: Identity): Promise<UserRow | undefined> {
    const { rows } = await q.query<UserRow>(
      `select ${USER_COLUMNS} from player_links l join users u on u.id = l.user_id
       where l.provider = $1 and l.issuer = $2 and l.subject = $3 and u.merged_into is null`,
      [identity.provider, identity.issuer ?? '', identity.subject],
    );
    return rows[0];
  }

  async function insertLink(q: Queryable | Db, userId: string, identity: Identity): Promise<void> {
    const { rows } = await q.query<{ user_id: string }>(
      `insert into player_links (user_id, provider, issuer, subject) values ($1, $2, $3, $4)
       on conflict (provider, issuer, subject) do update set provider = excluded.provider
       returning user_id`,
      [userId, identity.provider, identity.issuer ?? '', identity.subject],
    );
    if (rows[0]?.user_id !== userId) throw new LinkConflictError('This sign-in belongs to another player.');
  }

  return {
    findUser: (identity: Identity) => findUser(db, identity),

    /**
     * The player of this identity, or a new signed-in player holding it. `preferredSubject` becomes the
     * new player's own id when free (an OIDC subject stays the platformPlayerId it always was).
     */
    async findOrCreate(identity: Identity, profile: { name?: string; preferredSubject?: string } = {}) {
      const existing = await findUser(db, identity);
      if (existing) return existing;
      try {
        return await db.transaction(async (tx) => {
          const id = randomUUID();
          const subject = profile.preferredSubject ?? `p-${randomBytes(8).toString('hex')}`;
          const issuer = profile.preferredSubject ? (identity.issuer ?? null) : null;
          const username = `u-${randomBytes(6).toString('hex')}`;
          const name = (profile.name ?? '').slice(0, 80);
          const inserted = await tx.query(
            `insert into users (id, provider, issuer, subject, username, name) values ($1, 'ggl', $2, $3, $4, $5)
             on conflict do nothing returning id`,
            [id, issuer, subject, username, name],
          );
          if (!inserted.rows[0]) {
            // the subject is taken (an identity unlinked from its first player): a fresh player id instead
            await tx.query(
              `insert into users (id, provider, subject, username, name) values ($1, 'ggl', $2, $3, $4)`,
              [id, `p-${randomBytes(8).toString('hex')}`, username, name],
            );
          }
          await insertLink(tx, id, identity);
          return (await findUser(tx, identity))!;
        });
      } catch (error) {
        // another node created it first: theirs stands
        const raced = await findUser(db, identity);
        if (raced) return raced;
        throw error;
      }
    },

    async list(userId: string): Promise<PlayerLink[]> {
      const { rows } = await db.query<{ provider: LinkProvider; issuer: string; subject: string }>(
        'select provider, issuer, subject from player_links where user_id = $1 order by created_at, provider',
        [userId],
      );
      return rows.map((row) => ({
        provider: row.provider,
        subject: row.subject,
        ...(row.issuer ? { issuer: row.issuer } : {}),
      }));
    },

    /** Links the identity to this player (no-op when it already is); LinkConflictError when another holds it. */
    async link(userId: string, identity: Identity): Promise<void> {
      await db.transaction(async (tx) => {
        await insertLink(tx, userId, identity);
        // holding a sign-in makes a guest a signed-in player
        await tx.query(`update users set provider = 'ggl', updated_at = now() where id = $1`, [userId]);
      });
    },

    /**
     * Removes a link of this player; LastSignInError when it is their last sign-in. An email link takes
     * its email account (password) with it. Returns false when the player holds no such link.
     */
    async unlink(userId: string, provider: string, subject: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ provider: LinkProvider }>(
          'select provider from player_links where user_id = $1 for update',
          [userId],
        );
        const signIns = rows.filter((row) => SIGN_IN_PROVIDERS.includes(row.provider)).length;
        if (SIGN_IN_PROVIDERS.includes(provider as LinkProvider) && signIns <= 1) {
          const held = await tx.query(
            'select 1 from player_links where user_id = $1 and provider = $2 and subject = $3',
            [userId, provider, subject],
          );
          if (held.rows.length > 0)
            throw new LastSignInError('The last sign-in of a player cannot be unlinked.');
        }
        const deleted = await tx.query(
          'delete from player_links where user_id = $1 and provider = $2 and subject = $3 returning subject',
          [userId, provider, subject],
        );
        if (provider === 'email') {
          await tx.query('delete from email_accounts where email = $1 and user_id = $2', [subject, userId]);
          await tx.query('delete from email_tokens where email = $1', [subject]);
        }
        return deleted.rows.length > 0;
      });
    },

    /** Whether a player holds nothing but this one sign-in and has joined no room (an account just made). */
    async isUntouched(userId: string): Promise<boolean> {
      const { rows } = await db.query<{ links: number; rooms: number }>(
        `select (select count(*)::int from player_links where user_id = $1) as links,
                (select count(*)::int from room_members where user_id = $1) as rooms`,
        [userId],
      );
      return rows[0]?.links === 1 && rows[0]?.rooms === 0;
    },

    /**
     * Moves everything of player `fromId` (a guest who signed in, or an account just made by an OIDC
     * link) into `intoId`: its links, room history, messages and open sessions. An account whose owner
     * never chose a username takes the one the guest was seen with, so the room keeps knowing them. The
     * old row stays (rows elsewhere point at it) but is marked merged, so its tokens sign no one in.
     */
    async absorb(fromId: string, intoId: string): Promise<void> {
      if (fromId === intoId) return;
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<UserRow & { merged_into: string | null }>(
          `select id, provider, username, display_name, merged_into from users where id = any($1) for update`,
          [[fromId, intoId]],
        );
        const from = rows.find((row) => row.id === fromId);
        const into = rows.find((row) => row.id === intoId);
        if (!from || !into || from.merged_into || into.merged_into) return;
        await tx.query(
          `insert into room_members (user_id, room_id, added_at, updated_at)
             select $2, room_id, added_at, updated_at from room_members where user_id = $1
           on conflict (user_id, room_id) do update set
             added_at = least(room_members.added_at, excluded.added_at),
             updated_at = greatest(room_members.updated_at, excluded.updated_at)`,
          [fromId, intoId],
        );
        await tx.query('delete from room_members where user_id = $1', [fromId]);
        await tx.query('update messages set user_id = $2 where user_id = $1', [fromId, intoId]);
        await tx.query('update sessions set user_id = $2 where user_id = $1', [fromId, intoId]);
        await tx.query('update player_links set user_id = $2 where user_id = $1', [fromId, intoId]);
        const adopt = UNCHOSEN_MEMBER_NAME.test(into.username) && into.display_name === null;
        await tx.query(`update users set merged_into = $2, username = $3, updated_at = now() where id = $1`, [
          fromId,
          intoId,
          `m-${randomBytes(8).toString('hex')}`,
        ]);
        // a signed-in player carried into a guest makes the guest signed in
        if (from.provider !== 'guest') {
          await tx.query(`update users set provider = 'ggl' where id = $1`, [intoId]);
        }
        if (adopt) {
          await tx.query(
            'update users set username = $2, display_name = $3, updated_at = now() where id = $1',
            [intoId, from.username, from.display_name],
          );
        }
      });
    },
  };
}
export type PlayerLinks = ReturnType<typeof createPlayerLinks>;
