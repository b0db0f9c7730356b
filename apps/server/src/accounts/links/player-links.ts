import { SIGN_IN_PROVIDERS, type LinkProvider, type PlayerLink } from '@xtalk/protocol';
import type { Db } from '../../store/index.js';
import type { UserRooms } from '../user-rooms.js';
import { findOrCreatePlayer, findUser, insertLink, type Identity } from './identities.js';
import { absorbPlayer } from './player-merge.js';

export { LinkConflictError, type Identity } from './identities.js';

/** The last sign-in of a player cannot be removed: they could never sign in again. */
export class LastSignInError extends Error {}

/*
 * One player, several sign-ins (link/unlink). `player_links` maps every identity (an OIDC
 * subject, an email, a wallet address, a Telegram id, the guest identity the player began as, an
 * app-store account) to one user row; signing in with any of them finds that row, so room history,
 * username and usage stay with the player. See docs/decisions/0050-linked-sign-ins.md.
 */

/** What a merge ends: every sign-in session of the player carried into another (sign-in-sessions.ts). */
export interface MergedSessions {
  endAll(userId: string): Promise<void>;
}

export function createPlayerLinks(db: Db, rooms: UserRooms, sessions: MergedSessions) {
  return {
    findUser: (identity: Identity) => findUser(db, identity),

    /** The player of this identity, or a new signed-in player holding it (identities.ts). */
    findOrCreate: (identity: Identity, profile: { name?: string; preferredSubject?: string } = {}) =>
      findOrCreatePlayer(db, identity, profile),

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
      return rows[0]?.links === 1 && (await rooms.joinedRoomCount(db, userId)) === 0;
    },

    /**
     * Moves everything of player `fromId` into `intoId` (player-merge.ts): links, room history, messages
     * and open sessions; the old row stays, marked merged. Every sign-in session of `fromId` ends with it
     * (its sockets close on every node); the caller goes on with a token of `intoId`.
     */
    async absorb(fromId: string, intoId: string): Promise<void> {
      if (!(await absorbPlayer(db, rooms, fromId, intoId))) return;
      await sessions.endAll(fromId);
    },
  };
}
export type PlayerLinks = ReturnType<typeof createPlayerLinks>;
