import { randomBytes, randomUUID } from 'node:crypto';
import { generatedDisplayName, type Provider, type User } from '@xtalk/protocol';
import type { Db } from '../store/db.js';
import type { TokenClaims } from './tokens.js';

export interface UserRow {
  id: string;
  provider: Provider;
  subject: string;
  username: string;
  display_name: string | null;
  name: string;
}

/** A username another user already has (any case). */
export class UsernameTakenError extends Error {}

const USER_COLUMNS = 'id, provider, subject, username, display_name, name';

export const APP_ID = 'xtalk';
export const PLATFORM = 'web';

/** A signed-in user's username until they choose one (shown as a generated display name meanwhile). */
function memberUsername(): string {
  return `u-${randomBytes(6).toString('hex')}`;
}

/** Guest usernames start with g- (which is why chosen names may not). */
function guestUsername(): string {
  return `g-${randomBytes(6).toString('hex')}`;
}

export function createUsersRepo(db: Db) {
  return {
    async createGuest(): Promise<UserRow> {
      const id = randomUUID();
      const subject = `guest_${randomBytes(8).toString('hex')}`;
      const { rows } = await db.query<UserRow>(
        `insert into users (id, provider, subject, username) values ($1, 'guest', $2, $3)
         returning ${USER_COLUMNS}`,
        [id, subject, guestUsername()],
      );
      return rows[0]!;
    },
    /** Finds the signed-in user of an OIDC identity, creating it on first sign-in (race-safe across nodes). */
    async findOrCreateOidcUser(identity: {
      issuer: string;
      subject: string;
      name?: string;
    }): Promise<UserRow> {
      const find = async () => {
        const { rows } = await db.query<UserRow>(
          `select ${USER_COLUMNS} from users where provider = 'ggl' and issuer = $1 and subject = $2`,
          [identity.issuer, identity.subject],
        );
        return rows[0];
      };
      const existing = await find();
      if (existing) return existing;
      await db.query(
        `insert into users (id, provider, issuer, subject, username, name) values ($1, 'ggl', $2, $3, $4, $5)
         on conflict do nothing`,
        [
          randomUUID(),
          identity.issuer,
          identity.subject,
          memberUsername(),
          (identity.name ?? '').slice(0, 80),
        ],
      );
      const created = await find();
      if (!created) throw new Error('Could not create the signed-in user.');
      return created;
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

    async findByIds(ids: string[]): Promise<UserRow[]> {
      const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from users where id = any($1)`, [ids]);
      return rows;
    },

    async findBySubjects(subjects: string[]): Promise<UserRow[]> {
      const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from users where subject = any($1)`, [
        subjects,
      ]);
      return rows;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
      return rows[0];
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;

export function displayNameOf(row: Pick<UserRow, 'username' | 'display_name'>): string {
  return row.display_name ?? generatedDisplayName(row.username);
}

/** The user as the API tells it (spec section 3, User). */
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
