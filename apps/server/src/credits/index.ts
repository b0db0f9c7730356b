export {
  createLedger,
  LedgerError,
  type Ledger,
  type LedgerDeps,
  type LedgerEntry,
  type LedgerResult,
  type SpendResult,
  type BalanceChange,
  type BalancePart,
  type Reader,
} from './ledger.js';
export { tokyoDay } from './tokyo-day.js';
export { createCreditMeter, NO_CREDITS_NOTICE, GUEST_LIMIT_NOTICE } from './meter.js';
export { startBalanceEvents } from './balance-events.js';
export { createGuestCheck, dailyAllowance } from './accounts.js';
export { nextTokyoMidnight } from './tokyo-day.js';
export { createWalletQueries } from './wallet-queries.js';
