import type { Queryable } from '@xtalk/pglite-engine';

/*
 * The shape of a database as the pieces here use it: PGlite's (`@xtalk/pglite-engine`), which a
 * PostgreSQL pool answers too.
 */

export type { Queryable };

/** Statements only: what a read needs, in a transaction or not. */
export type Reader = Pick<Queryable, 'query'>;
