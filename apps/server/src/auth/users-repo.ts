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

export const APP_ID = 'xtalk';
export const PLATFORM = 'web';

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
         returning id, provider, subject, username, display_name, name`,
        [id, subject, guestUsername()],
      );
      return rows[0]!;
    },
    async findById(id: string): Promise<UserRow | undefined> {
      const { rows } = await db.query<UserRow>(
        'select id, provider, subject, username, display_name, name from users where id = $1',
        [id],
      );
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
