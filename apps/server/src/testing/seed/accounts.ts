import { dbOf, type Store } from './store.js';

/** A user's id in the database (a login answer names the user, not the row). */
export async function userIdOf(store: Store, username: string): Promise<string> {
  const { rows } = await dbOf(store).query<{ id: string }>('select id from users where username = $1', [
    username,
  ]);
  return rows[0]!.id;
}

/** A user's display name set apart from the username, as some providers leave it (no API does). */
export async function setDisplayName(store: Store, userId: string, name: string | null): Promise<void> {
  await dbOf(store).query('update users set display_name = $2 where id = $1', [userId, name]);
}

/** Marks a user merged into another without moving anything: its tokens must sign no one in. */
export async function markMerged(store: Store, fromId: string, intoId: string): Promise<void> {
  await dbOf(store).query('update users set merged_into = $2 where id = $1', [fromId, intoId]);
}

/** A user made long ago: the users API stamps the present, idle-guest removal reads the creation. */
export async function backdateUser(store: Store, userId: string, createdAt: Date): Promise<void> {
  await dbOf(store).query('update users set created_at = $2 where id = $1', [userId, createdAt]);
}

/** Every user with what a request could change of it, by id: merged and guest users too (no API lists them). */
export async function storedUsers(store: Store) {
  const { rows } = await dbOf(store).query<{
    id: string;
    username: string;
    name: string | null;
    display_name: string | null;
    player_data: unknown;
  }>('select id, username, name, display_name, player_data from users order by id');
  return rows;
}

/**
 * A bot-check solution used and remembered until `expiresAt`, as a verified one leaves it (a real one
 * takes solving a proof-of-work).
 */
export async function markBotCheckUsed(store: Store, id: string, expiresAt: Date): Promise<void> {
  await dbOf(store).query('insert into botcheck_used (id, expires_at) values ($1, $2)', [id, expiresAt]);
}

/** The bot-check solutions remembered as used (the bot check only answers whether one is). */
export async function usedBotChecks(store: Store): Promise<string[]> {
  const { rows } = await dbOf(store).query<{ id: string }>('select id from botcheck_used order by id');
  return rows.map((row) => row.id);
}

/**
 * An email sign-in a player asked for and has not verified, as registering leaves it before its mail is
 * followed (registering itself needs the mailer and its limits).
 */
export async function seedPendingEmailAccount(store: Store, email: string, userId: string): Promise<void> {
  await dbOf(store).query(
    "insert into email_accounts (email, pending_user_id, password_hash) values ($1, $2, 'x')",
    [email, userId],
  );
}

/** Who asked for each email sign-in not verified yet (null once that player is gone). */
export async function pendingEmailRequesters(store: Store): Promise<(string | null)[]> {
  const { rows } = await dbOf(store).query<{ pending_user_id: string | null }>(
    'select pending_user_id from email_accounts order by email',
  );
  return rows.map((row) => row.pending_user_id);
}

/** The PKCE verifier a Google sign-in flow keeps on the server (the browser never sees it). */
export async function flowVerifierOf(store: Store, state: string): Promise<string | undefined> {
  const { rows } = await dbOf(store).query<{ code_verifier: string }>(
    'select code_verifier from auth_flows where state = $1',
    [state],
  );
  return rows[0]?.code_verifier;
}

/** Swaps a pending flow's PKCE verifier, as an attacker holding a stolen code would have to. */
export async function swapFlowVerifier(store: Store, state: string, verifier: string): Promise<void> {
  await dbOf(store).query('update auth_flows set code_verifier = $2 where state = $1', [state, verifier]);
}
