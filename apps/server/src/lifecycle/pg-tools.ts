import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

/*
 * With DATABASE_URL, backups are PostgreSQL's own: Debian's pg_dump in its custom format (compressed,
 * restored table by table) and pg_restore (decision 0217). The password goes to the tools in PGPASSWORD,
 * not on their command line, where any user of the machine could read it.
 */

const run = promisify(execFile);

/** The tools' connection arguments and environment for `url`, its password kept off the command line. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** The tool's own words when it fails, not the command line (which holds the address). */
async function tool(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(name, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stderr, code } = error as { stderr?: string; code?: string | number };
    if (code === 'ENOENT')
      throw new Error(`${name} is not installed: on Debian, apt-get install postgresql-client`);
    throw new Error(`${name} failed: ${stderr?.trim() || String(code)}`);
  }
}

/** `pg_dump -Fc` of the whole database into `file`. */
export async function pgDump(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await tool('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${dbname}`], env);
}

/** The tables a database holds in its public schema (a restore goes into an empty one only). */
export async function tablesIn(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by tablename",
    );
    return rows.map((row) => row.tablename);
  } finally {
    await client.end();
  }
}

/**
 * `pg_restore` of a `pg_dump -Fc` file into the database at `url`, in one transaction: a dump that fails
 * half-way leaves the database as empty as it was. Ownership and grants are the restoring role's.
 */
export async function pgRestore(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'];
  await tool('pg_restore', [...args, `--dbname=${dbname}`, file], env);
}
