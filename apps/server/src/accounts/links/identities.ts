import { randomBytes, randomUUID } from 'node:crypto';
import type { LinkProvider } from '@xtalk/protocol';
import type { Db, Queryable } from '../../store/index.js';
import type { UserRow } from '../users/user-row.js';

/* The identities a player signs in with (`player_links`), and the player each one finds. */

export interface Identity {
  provider: LinkProvider;
  subject: string;
  /** The OIDC issuer (`ggl`) or the store (`store`); empty otherwise. */
  issuer?: string;
}

/** The identity is held by another player; linking it here would take it from them. */
export class LinkConflictError extends Error {}

const USER_COLUMNS = 'u.id, u.provider, u.subject, u.username, u.display_name, u.name';

export async function findUser(q: Queryable | Db, identity: Identity): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from player_links l join users u on u.id = l.user_id
     where l.provider = $1 and l.issuer = $2 and l.subject = $3 and u.merged_into is null`,
    [identity.provider, identity.issuer ?? '', identity.subject],
  );
  return rows[0];
}

export async function insertLink(q: Queryable | Db, userId: string, identity: Identity): Promise<void> {
  const { rows } = await q.query<{ user_id: string }>(
    `insert into player_links (user_id, provider, issuer, subject) values ($1, $2, $3, $4)
     on conflict (provider, issuer, subject) do update set provider = excluded.provider
     returning user_id`,
    [userId, identity.provider, identity.issuer ?? '', identity.subject],
  );
  if (rows[0]?.user_id !== userId) throw new LinkConflictError('This sign-in belongs to another player.');
}

/**
 * The player of this identity, or a new signed-in player holding it. `preferredSubject` becomes the
 * new player's own id when free (an OIDC subject stays the platformPlayerId it always was).
 */
export async function findOrCreatePlayer(
  db: Db,
  identity: Identity,
  profile: { name?: string; preferredSubject?: string } = {},
): Promise<UserRow> {
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
}
