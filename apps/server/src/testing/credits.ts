import type { TestServer } from './harness.js';

/* Test access to a running server's ledger, through the credits module, and the invariant every credits test ends on. */

export const ledgerOf = (server: TestServer) => server.app.xtalkCredits.ledger;
export { dbOf, expectBalancesEqualSumOfRows } from './seed/index.js';
