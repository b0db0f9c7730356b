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
    id: 7,
    name: 'limits: finding idle guests and what they own',
    sql: `
      create index if not exists users_guest_created_idx on users (created_at) where provider = 'guest';
      create index if not exists sessions_user_idx on sessions (user_id);
      create index if not exists messages_user_idx on messages (user_id);
    `,
  },
];

const LOCK_KEY = 87_870_001;

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
