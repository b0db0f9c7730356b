/** A change the ledger refuses: an overdraft, an unknown row or account, an amount that is no amount. */
export class LedgerError extends Error {
  constructor(
    readonly code: 'insufficient' | 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}
