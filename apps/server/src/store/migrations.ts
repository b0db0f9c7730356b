import { ORDERS_AND_WITHDRAWALS_SQL, SERVICE_TABLES_SQL } from '@xtalk/payments/schema';
import type { Db } from './db.js';

/*
 * Forward-only migrations, applied in order, each once, inside a transaction under an advisory lock so
 * that several nodes starting together against one PostgreSQL do not race. Never edit a shipped one:
 * add the next.
 */
export const migrations: { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'users, rooms, sessions, messages',
    sql: `
      create table users (
        id text primary key,
        provider text not null,
        subject text not null,
        username text not null unique,
        display_name text,
        name text not null default '',
        created_at timestamptz not null default now(),
        unique (provider, subject)
      );
      create table botcheck_used (
        id text primary key,
        expires_at timestamptz not null
      );
      create table rooms (
        id text primary key,
        created_by text references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        last_message_id bigint not null default 0
      );
      create table room_members (
        user_id text not null references users(id),
        room_id text not null references rooms(id),
        added_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (user_id, room_id)
      );
      create table sessions (
        id text primary key,
        user_id text not null references users(id),
        room_id text not null references rooms(id),
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      );
      create index sessions_expires_idx on sessions (expires_at);
      create table messages (
        room_id text not null references rooms(id),
        id bigint not null,
        user_id text references users(id),
        username text not null,
        display_username text,
        language text not null,
        text text not null,
        translations jsonb not null default '{}'::jsonb,
        note text,
        is_tutorial boolean not null default false,
        primary key (room_id, id)
      );
    `,
  },
  {
    id: 2,
    name: 'accounts: OIDC issuer, player data, sign-in flows and one-time codes',
    sql: `
      alter table users add column issuer text;
      alter table users add column player_data jsonb not null default '{}'::jsonb;
      alter table users add column updated_at timestamptz not null default now();
      -- a signed-in user is found by issuer + subject; guests have no issuer
      alter table users drop constraint users_provider_subject_key;
      create unique index users_identity_idx on users (provider, coalesce(issuer, ''), subject);
      -- usernames are unique regardless of case: Alice and alice are one name
      create unique index users_username_lower_idx on users (lower(username));
      -- OIDC authorisation requests in flight (state, nonce, PKCE verifier): any node may get the callback
      create table auth_flows (
        state text primary key,
        nonce text not null,
        code_verifier text not null,
        redirect_uri text not null,
        browser_hash text not null,
        expires_at timestamptz not null
      );
      create index auth_flows_expires_idx on auth_flows (expires_at);
      -- one-time codes of /auth/{code}, stored hashed, single-use, short-lived
      create table auth_codes (
        code_hash text primary key,
        user_id text not null references users(id) on delete cascade,
        expires_at timestamptz not null
      );
      create index auth_codes_expires_idx on auth_codes (expires_at);
      create index room_members_user_idx on room_members (user_id, updated_at desc);
    `,
  },
  {
    id: 3,
    name: 'credits ledger, orders, withdraw requests',
    // credit_accounts holds each balance as a lockable row (the sum of the account's credit_txns, kept in
    // the same transaction); the checks are a second guard behind the ledger's own refusal to overdraw.
    sql: `
      create table credit_accounts (
        user_id text primary key,
        free bigint not null default 0 check (free >= 0),
        premium bigint not null default 0 check (premium >= 0),
        daily_day text,
        updated_at timestamptz not null default now()
      );
      create table credit_txns (
        seq bigserial unique,
        id text primary key,
        user_id text not null references credit_accounts(user_id),
        kind text not null,
        free_delta bigint not null,
        premium_delta bigint not null,
        cause text not null,
        reference text,
        idempotency_key text not null,
        reverses text references credit_txns(id),
        created_at timestamptz not null,
        unique (user_id, idempotency_key)
      );
      create unique index credit_txns_reverses_idx on credit_txns (reverses) where reverses is not null;
      create index credit_txns_user_idx on credit_txns (user_id, seq desc);${ORDERS_AND_WITHDRAWALS_SQL}`,
  },
  {
    id: 4,
    name: 'payment service: app-store purchases, server transactions, withdraw decisions',
    sql: SERVICE_TABLES_SQL,
  },
  {
    id: 5,
    name: 'players: linked sign-ins, email accounts, wallet nonces, attempt counters',
    sql: `
      -- every identity a player signs in with (and the guest identity they started as); users keeps its
      -- provider/subject as the player's own id (platformPlayerId)
      create table player_links (
        user_id text not null references users(id),
        provider text not null,
        issuer text not null default '',
        subject text not null,
        created_at timestamptz not null default now(),
        primary key (provider, issuer, subject)
      );
      create index player_links_user_idx on player_links (user_id);
      insert into player_links (user_id, provider, issuer, subject)
        select id, provider, coalesce(issuer, ''), subject from users;
      -- a guest whose player was absorbed into an account: its old tokens no longer sign anyone in
      alter table users add column merged_into text;
      create table email_accounts (
        email text primary key,
        user_id text references users(id),
        -- who asked for the account while signed in (or as a guest): linked into that player on verify
        pending_user_id text references users(id),
        password_hash text not null,
        verified_at timestamptz,
        created_at timestamptz not null default now()
      );
      -- verification and reset tokens: only their hash, single-use, expiring
      create table email_tokens (
        token_hash text primary key,
        email text not null,
        purpose text not null,
        expires_at timestamptz not null
      );
      create index email_tokens_email_idx on email_tokens (email, purpose);
      create index email_tokens_expires_idx on email_tokens (expires_at);
      create table wallet_nonces (
        nonce text primary key,
        address text not null,
        expires_at timestamptz not null
      );
      create index wallet_nonces_expires_idx on wallet_nonces (expires_at);
      -- fixed-window counters of wrong passwords and mails, per account and per IP
      create table auth_counters (
        key text primary key,
        count integer not null,
        expires_at timestamptz not null
      );
      create index auth_counters_expires_idx on auth_counters (expires_at);
    `,
  },
  {
    id: 6,
    name: 'delivery: room offsets and epochs, the change log, client message ids',
    sql: `
      -- every stored change of a room (a message, a translation, a note, a rename) takes the next seq
      -- from its room row, under that row's lock, in the same transaction: gap-free per room
      alter table rooms add column last_seq bigint not null default 0;
      -- changes only when the room's history is reset; a resume of another epoch starts over
      alter table rooms add column epoch text not null default substr(md5(random()::text), 1, 12);
      alter table messages add column seq bigint;
      alter table messages add column client_id text;
      update messages m set seq = numbered.n
        from (select room_id, id, row_number() over (partition by room_id order by id) as n from messages) numbered
        where m.room_id = numbered.room_id and m.id = numbered.id;
      update rooms r set last_seq = coalesce((select max(seq) from messages m where m.room_id = r.id), 0);
      create unique index messages_room_seq_idx on messages (room_id, seq);
      -- a resend of the same client message id by the same author is the same message
      create unique index messages_client_id_idx on messages (user_id, client_id) where client_id is not null;
      -- the later changes to messages, each at its own seq, replayed to a client that resumes
      create table room_changes (
        room_id text not null references rooms(id),
        seq bigint not null,
        frame jsonb not null,
        created_at timestamptz not null default now(),
        primary key (room_id, seq)
      );
    `,
  },
  {
    id: 7,
    name: 'limits: finding idle guests and what they own',
    sql: `
      create index if not exists users_guest_created_idx on users (created_at) where provider = 'guest';
      create index if not exists sessions_user_idx on sessions (user_id);
      create index if not exists messages_user_idx on messages (user_id);
    `,
  },
  {
    id: 9,
    name: 'corrections: when a message was last edited by its author',
    sql: `
      -- server time in ms of the author's last correction; null: never edited
      alter table messages add column if not exists edited_at bigint;
    `,
  },
  {
    id: 10,
    name: 'room glossaries',
    sql: `
      -- a room's whole glossary (a JSON list replaced whole by every change) and its version
      create table if not exists room_glossaries (
        room_id text primary key references rooms(id),
        version integer not null,
        entries jsonb not null,
        updated_by text,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    id: 11,
    name: 'failed translations',
    sql: `
      -- the languages a message's translation failed into for good, so history can mark them
      alter table messages add column if not exists failed_translations text[] not null default '{}';
    `,
  },
  {
    id: 12,
    name: 'sign-in sessions',
    sql: `
      -- every session token names its row here (sid); ending a session deletes the row, so the token is
      -- refused on every node at its next request (docs/decisions/0195-sessions-that-end.md)
      create table if not exists sign_in_sessions (
        id text primary key,
        user_id text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create index if not exists sign_in_sessions_user_idx on sign_in_sessions (user_id);
      create index if not exists sign_in_sessions_expires_idx on sign_in_sessions (expires_at);
      -- tokens made before sessions were stored name no row: they are refused once this is set
      alter table users add column if not exists sessions_ended_at timestamptz;
    `,
  },
  {
    id: 13,
    name: 'email claims in their tokens',
    sql: `
      -- a verification token carries its request's claim (the player who asked, the password given): an
      -- unverified registration holds no account row, and opening the link binds that claim alone
      alter table email_tokens add column if not exists pending_user_id text;
      alter table email_tokens add column if not exists password_hash text;
    `,
  },
  {
    id: 14,
    name: 'deleted authors',
    sql: `
      -- the author of this message deleted their account: it stays in the room without a name
      -- (docs/decisions/0213-a-deleted-account-leaves-its-messages-nameless.md)
      alter table messages add column if not exists author_deleted boolean not null default false;
    `,
  },
  {
    id: 15,
    name: 'erased ledgers',
    sql: `
      -- the hash of a deleted account's id: a balance change in flight at the deletion cannot open the
      -- account again under that id (docs/decisions/0246-no-ledger-row-after-a-deletion.md)
      create table if not exists erased_ledgers (
        id_hash text primary key,
        erased_at timestamptz not null default now()
      );
    `,
  },
];

const LOCK_KEY = 87_870_001;

/** The ids of the migrations a database has applied (a restored backup's check that it is XTalk's). */
export async function appliedMigrations(db: Pick<Db, 'query'>): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('select id from schema_migrations order by id');
  return rows.map((row) => Number(row.id));
}

export async function migrate(db: Db): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.query(
      'create table if not exists schema_migrations (id integer primary key, name text not null, applied_at timestamptz not null default now())',
    );
    const { rows } = await tx.query<{ id: number }>('select id from schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.id)));
    const ran: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (id, name) values ($1, $2)', [
        migration.id,
        migration.name,
      ]);
      ran.push(migration.id);
    }
    return ran;
  });
}
