import { randomBytes, randomUUID } from 'node:crypto';
import { SIGN_IN_PROVIDERS, type LinkProvider, type PlayerLink } from '@xtalk/protocol';
import { countJoinedRooms } from '../../rooms/user-merge.js';
import type { Db, Queryable } from '../../store/db.js';
import { absorbPlayer } from './player-merge.js';
import type { UserRow } from '../users/users-repo.js';

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

export function createPlayerLinks(db: Db) {
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
      const { rows } = await db.query<{ links: number }>(
        'select count(*)::int as links from player_links where user_id = $1',
        [userId],
      );
      return rows[0]?.links === 1 && (await countJoinedRooms(db, userId)) === 0;
    },

    /**
     * Moves everything of player `fromId` into `intoId` (player-merge.ts): links, room history, messages
     * and open sessions; the old row stays, marked merged.
     */
    absorb: (fromId: string, intoId: string): Promise<void> => absorbPlayer(db, fromId, intoId),
  };
}
export type PlayerLinks = ReturnType<typeof createPlayerLinks>;
