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
