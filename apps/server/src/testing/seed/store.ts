import type { Db } from '../../store/index.js';
import type { TestServer } from '../harness.js';

/** What a seed helper works on: a running test server, or the database a module's test opened itself. */
export type Store = TestServer | Db;

/** The app's own database (never a second connection). */
export const dbOf = (store: Store): Db => ('app' in store ? store.app.xtalkDb : store);
