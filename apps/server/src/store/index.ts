/*
 * The database, PGlite or PostgreSQL behind one interface, its migrations and the group commit, and how
 * an unreachable database is told apart.
 */
export { openDb, pgliteSettings, type Db, type Queryable } from './db.js';
export { DATABASE_REFUSAL, isDatabaseUnreachable } from './unreachable.js';
export { migrate, migrations } from './migrations.js';
export { createGroupCommit } from './group-commit.js';
export { startExpirySweeper } from './expired-rows.js';
