import type { Db } from '../store/index.js';

/**
 * The same database, with the SQL of every statement run through `query` recorded in `statements` (in
 * order): for tests that check how many statements a path costs, or which ones it runs.
 */
export function recordingStatements(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  return {
    db: {
      ...db,
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
    },
    statements,
  };
}
