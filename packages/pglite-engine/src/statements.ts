import type * as PgliteModule from '@electric-sql/pglite';
import { bindExecuteSync, ReplyReader, type WireValue } from './wire.js';

/** PGlite's protocol and type modules, passed in: the server loads PGlite only where it runs it. */
export type PgliteCodecs = Pick<typeof PgliteModule, 'protocol' | 'types'>;

/**
 * Statements on PGlite, each prepared once (docs/decisions/0118). PGlite's own `query` parses, describes,
 * binds, describes again, executes and syncs as six calls into the WASM backend for every statement, and
 * PostgreSQL parses and plans the SQL each time: for the key lookups a chat server makes that is most of
 * their cost (a session lookup costs several times the same statement sent as one simple query). Here a statement's SQL is parsed and described once under a name; after that one call binds,
 * executes and syncs. Values are serialised and rows parsed with the database's own type handlers, so
 * rows look exactly as `query` returns them. That call's bytes are written and its answer read by
 * wire.ts rather than by PGlite's general serializer and parser, which cost a large share of a
 * short statement's CPU back to back (docs/decisions/0128); an error is still parsed, and thrown, by PGlite's
 * own parser.
 */

interface Prepared {
  name: string;
  /** Each parameter's type, as PostgreSQL inferred it: picks the serialiser. */
  paramTypes: number[];
  fields: Array<{ name: string; dataTypeID: number }>;
}

/** Enough for every statement the server writes by hand; varying batch sizes churn through the rest. */
export const MAX_PREPARED = 256;
/** SQLSTATE feature_not_supported: "cached plan must not change result type" after a table changed. */
const PLAN_CHANGED = '0A000';

export function preparedStatements(db: PgliteModule.PGlite, { protocol, types }: PgliteCodecs) {
  const { serialize } = protocol;
  /** In order of last use, least recent first. */
  const prepared = new Map<string, Prepared>();
  /** Evicted statements, closed in front of the next call. */
  let toClose: string[] = [];
  let counter = 0;

  async function prepare(sql: string): Promise<Prepared> {
    const name = `s${++counter}`;
    const { messages } = await db.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const statement: Prepared = { name, paramTypes: [], fields: [] };
    for (const message of messages) {
      if (message instanceof protocol.messages.ParameterDescriptionMessage)
        statement.paramTypes = message.dataTypeIDs;
      if (message instanceof protocol.messages.RowDescriptionMessage)
        statement.fields = message.fields.map(({ name: field, dataTypeID }) => ({ name: field, dataTypeID }));
    }
    prepared.set(sql, statement);
    if (prepared.size > MAX_PREPARED) {
      const [oldest, evicted] = prepared.entries().next().value!;
      prepared.delete(oldest);
      toClose.push(evicted.name);
    }
    return statement;
  }

  async function run(statement: Prepared, params: readonly unknown[]): Promise<{ rows: object[] }> {
    const values = params.map((value, index): WireValue => {
      if (value === null || value === undefined) return null;
      const serialiser = db.serializers[statement.paramTypes[index] ?? -1];
      return serialiser ? (serialiser(value) as WireValue) : String(value);
    });
    const message = bindExecuteSync(statement.name, values, toClose);
    toClose = [];
    const reply = new ReplyReader();
    // the server's file systems (NodeFS for a data directory, the in-memory one for tests) write through:
    // their syncToFs does nothing, and skipping it skips a lock and two promises per statement
    await db.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => reply.push(chunk) });
    if (reply.error) throw databaseError(reply.error);
    const { fields } = statement;
    return {
      rows: reply.rows.map((values) => {
        const row: Record<string, unknown> = {};
        for (let index = 0; index < fields.length; index++) {
          const field = fields[index]!;
          row[field.name] = types.parseType(values[index] ?? null, field.dataTypeID, db.parsers);
        }
        return row;
      }),
    };
  }

  /** The error PGlite itself would throw for this ErrorResponse, from its own parser. */
  function databaseError(bytes: Uint8Array): Error {
    let error: Error | undefined;
    new protocol.Parser().parse(bytes, (message) => {
      if (message instanceof protocol.messages.DatabaseError) error = message;
    });
    return error ?? new Error('The database answered with an error that could not be read.');
  }

  return {
    async query(sql: string, params: readonly unknown[] = []): Promise<{ rows: object[] }> {
      let statement = prepared.get(sql);
      if (statement) {
        // most recently used goes last, so the least recently used is evicted first
        prepared.delete(sql);
        prepared.set(sql, statement);
      } else statement = await prepare(sql);
      try {
        return await run(statement, params);
      } catch (error) {
        // a table this statement reads changed shape (a migration): prepare it again, once
        if ((error as { code?: unknown }).code !== PLAN_CHANGED) throw error;
        prepared.delete(sql);
        toClose.push(statement.name);
        return run(await prepare(sql), params);
      }
    },
  };
}
