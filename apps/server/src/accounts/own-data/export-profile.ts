import type { Queryable } from '../../store/index.js';

/*
 * Accounts' part of a person's export: their profile and their sign-in methods, without a secret (no
 * password hash, no token, no session id).
 */

export interface ExportProfile {
  id: string;
  username: string;
  displayName: string | null;
  fullName: string;
  provider: string;
  createdAt: string;
  playerData: Record<string, unknown>;
}

export interface ExportSignIn {
  provider: string;
  issuer?: string;
  subject: string;
  linkedAt: string;
}

export interface ExportEmail {
  email: string;
  confirmedAt: string | null;
}

type Reader = Pick<Queryable, 'query'>;

const iso = (value: Date | string) => new Date(value).toISOString();

export async function profileOf(db: Reader, userId: string): Promise<ExportProfile | undefined> {
  const { rows } = await db.query<{
    id: string;
    username: string;
    display_name: string | null;
    name: string;
    provider: string;
    created_at: Date | string;
    player_data: Record<string, unknown> | null;
  }>(
    `select id, username, display_name, name, provider, created_at, player_data from users
      where id = $1 and merged_into is null`,
    [userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    fullName: row.name,
    provider: row.provider,
    createdAt: iso(row.created_at),
    playerData: row.player_data ?? {},
  };
}

export async function signInsOf(db: Reader, userId: string): Promise<ExportSignIn[]> {
  const { rows } = await db.query<{ provider: string; issuer: string; subject: string; created_at: Date }>(
    'select provider, issuer, subject, created_at from player_links where user_id = $1 order by created_at',
    [userId],
  );
  return rows.map((row) => ({
    provider: row.provider,
    ...(row.issuer ? { issuer: row.issuer } : {}),
    subject: row.subject,
    linkedAt: iso(row.created_at),
  }));
}

export async function emailsOf(db: Reader, userId: string): Promise<ExportEmail[]> {
  const { rows } = await db.query<{ email: string; verified_at: Date | null }>(
    'select email, verified_at from email_accounts where user_id = $1 order by email',
    [userId],
  );
  return rows.map((row) => ({
    email: row.email,
    confirmedAt: row.verified_at ? iso(row.verified_at) : null,
  }));
}
