import { randomBytes, randomUUID } from 'node:crypto';
import { APP_ID, generatedDisplayName, type User } from '@xtalk/protocol';
import type { Db } from '../../store/index.js';
import { findOrCreatePlayer } from '../links/identities.js';
import type { TokenClaims } from '../sessions/tokens.js';
import type { UserRow } from './user-row.js';

export type { UserRow } from './user-row.js';

/** A username another user already has (any case). */
export class UsernameTakenError extends Error {}

const USER_COLUMNS = 'id, provider, subject, username, display_name, name';

export { APP_ID };
export const PLATFORM = 'web';

/** Guest usernames start with g- (which is why chosen names may not). */
function guestUsername(): string {
  return `g-${randomBytes(6).toString('hex')}`;
}

/** Users by id or subject; a user merged into another is no longer found. */
function userLookups(db: Db) {
  return {
    async findByIds(ids: string[]): Promise<UserRow[]> {
      const { rows } = await db.query<UserRow>(
        `select ${USER_COLUMNS} from users where id = any($1) and merged_into is null`,
        [ids],
      );
      return rows;
    },

    async findBySubjects(subjects: string[]): Promise<UserRow[]> {
      const { rows } = await db.query<UserRow>(
        `select ${USER_COLUMNS} from users where subject = any($1) and merged_into is null`,
        [subjects],
      );
      return rows;
    },

    /**
     * The user of a token's claims while its sign-in session lives (sign-in-sessions.ts); undefined when
     * the session was ended, or the user is unknown or merged. Read in the one statement each request
     * already made for its user, so ending sessions costs the hot path no round trip.
     */
    async findSignedIn(id: string, sessionId: string | undefined): Promise<UserRow | undefined> {
      const { rows } = await db.query<UserRow>(
        `select ${USER_COLUMNS} from users u where id = $1 and merged_into is null and
           case when $2::text is null then sessions_ended_at is null
                else exists (select 1 from sign_in_sessions s where s.id = $2 and s.user_id = u.id) end`,
        [id, sessionId ?? null],
      );
      return rows[0];
    },

    /** The user of this id; undefined when unknown or merged into the account its guest signed in to. */
    async findById(id: string): Promise<UserRow | undefined> {
      const { rows } = await db.query<UserRow>(
        `select ${USER_COLUMNS} from users where id = $1 and merged_into is null`,
        [id],
      );
      return rows[0];
    },
  };
}

export function createUsersRepo(db: Db) {
  return {
    ...userLookups(db),
    async createGuest(): Promise<UserRow> {
      const id = randomUUID();
      const subject = `guest_${randomBytes(8).toString('hex')}`;
      // the guest identity is the player's first link: it moves with them when they sign in
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<UserRow>(
          `insert into users (id, provider, subject, username) values ($1, 'guest', $2, $3)
           returning ${USER_COLUMNS}`,
          [id, subject, guestUsername()],
        );
        await tx.query(`insert into player_links (user_id, provider, subject) values ($1, 'guest', $2)`, [
          id,
          subject,
        ]);
        return rows[0]!;
      });
    },
    /** Finds the player of an OIDC identity, creating it on first sign-in (race-safe across nodes). */
    async findOrCreateOidcUser(identity: {
      issuer: string;
      subject: string;
      name?: string;
    }): Promise<UserRow> {
      return findOrCreatePlayer(
        db,
        { provider: 'ggl', issuer: identity.issuer, subject: identity.subject },
        { ...(identity.name ? { name: identity.name } : {}), preferredSubject: identity.subject },
      );
    },

    /**
     * Sets the username (shown as the display name from now on) and optionally the full name. A username
     * someone else holds, in any case, throws UsernameTakenError; the unique index decides races.
     */
    async updateProfile(id: string, profile: { username: string; fullName?: string }): Promise<UserRow> {
      try {
        const { rows } = await db.query<UserRow>(
          `update users set username = $2, display_name = case when username = $2 then display_name else $2 end,
             name = coalesce($3, name), updated_at = now()
           where id = $1 returning ${USER_COLUMNS}`,
          [id, profile.username, profile.fullName ?? null],
        );
        if (!rows[0]) throw new Error(`No user ${id}.`);
        return rows[0];
      } catch (error) {
        if ((error as { code?: string }).code === '23505') throw new UsernameTakenError(profile.username);
        throw error;
      }
    },

    async isUsernameTaken(username: string, exceptId: string): Promise<boolean> {
      const { rows } = await db.query('select 1 from users where lower(username) = lower($1) and id <> $2', [
        username,
        exceptId,
      ]);
      return rows.length > 0;
    },

    async setName(id: string, name: string): Promise<void> {
      await db.query('update users set name = $2, updated_at = now() where id = $1', [id, name]);
    },

    async playerData(ids: string[]): Promise<Map<string, Record<string, unknown>>> {
      const { rows } = await db.query<{ id: string; player_data: Record<string, unknown> }>(
        'select id, player_data from users where id = any($1)',
        [ids],
      );
      return new Map(rows.map((row) => [row.id, row.player_data ?? {}]));
    },

    async setPlayerData(id: string, data: Record<string, unknown>): Promise<void> {
      await db.query('update users set player_data = $2, updated_at = now() where id = $1', [
        id,
        JSON.stringify(data),
      ]);
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;

export function displayNameOf(row: Pick<UserRow, 'username' | 'display_name'>): string {
  return row.display_name ?? generatedDisplayName(row.username);
}

/** The user as the API tells it (`User`). */
export function toUser(row: UserRow, claims: Pick<TokenClaims, 'expiresAt'>): User {
  return {
    userId: row.id,
    appId: APP_ID,
    platform: PLATFORM,
    platformPlayerId: row.subject,
    provider: row.provider,
    username: row.username,
    displayUsername: displayNameOf(row),
    name: row.name,
    expiresAt: claims.expiresAt,
  };
}
