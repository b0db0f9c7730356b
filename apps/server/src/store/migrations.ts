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
