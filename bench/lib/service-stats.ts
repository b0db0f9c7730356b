import pg from 'pg';
import type { Redis } from 'ioredis';

/*
 * What a run costs the shared services, read from their own counters: Redis's INFO (commands, bytes in and
 * out, calls per command) and PostgreSQL's pg_stat_database for the run's own database (transactions and
 * rows; pg_stat_statements is not loaded on this machine's server). Each read is a snapshot; a run takes
 * the difference of two.
 */

export interface RedisSnapshot {
  commands: number;
  bytesIn: number;
  bytesOut: number;
  calls: Record<string, number>;
}

export interface PostgresSnapshot {
  transactions: number;
  inserted: number;
  updated: number;
  returned: number;
}

function infoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 1));
  }
  return fields;
}

export async function redisSnapshot(redis: Redis): Promise<RedisSnapshot> {
  const stats = infoFields(await redis.info('stats'));
  const calls: Record<string, number> = {};
  for (const [name, value] of infoFields(await redis.info('commandstats'))) {
    const match = /calls=(\d+)/.exec(value);
    if (name.startsWith('cmdstat_') && match) calls[name.slice('cmdstat_'.length)] = Number(match[1]);
  }
  return {
    commands: Number(stats.get('total_commands_processed') ?? 0),
    bytesIn: Number(stats.get('total_net_input_bytes') ?? 0),
    bytesOut: Number(stats.get('total_net_output_bytes') ?? 0),
    calls,
  };
}

export function redisDelta(before: RedisSnapshot, after: RedisSnapshot): RedisSnapshot {
  const calls: Record<string, number> = {};
  for (const [name, count] of Object.entries(after.calls)) {
    const delta = count - (before.calls[name] ?? 0);
    // the snapshots' own INFO calls are not the run's
    if (delta > 0 && name !== 'info') calls[name] = delta;
  }
  return {
    commands: after.commands - before.commands - 2,
    bytesIn: after.bytesIn - before.bytesIn,
    bytesOut: after.bytesOut - before.bytesOut,
    calls,
  };
}

export async function postgresSnapshot(url: string): Promise<PostgresSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `select xact_commit + xact_rollback as transactions, tup_inserted as inserted,
              tup_updated as updated, tup_returned as returned
         from pg_stat_database where datname = current_database()`,
    );
    const row = rows[0] ?? {};
    return {
      // this read's own connection commits once
      transactions: Number(row.transactions ?? 0),
      inserted: Number(row.inserted ?? 0),
      updated: Number(row.updated ?? 0),
      returned: Number(row.returned ?? 0),
    };
  } finally {
    await client.end();
  }
}

export const postgresDelta = (before: PostgresSnapshot, after: PostgresSnapshot): PostgresSnapshot => ({
  transactions: after.transactions - before.transactions - 1,
  inserted: after.inserted - before.inserted,
  updated: after.updated - before.updated,
  returned: after.returned - before.returned,
});
