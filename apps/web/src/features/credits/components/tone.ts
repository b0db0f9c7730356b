import type { BalanceTone } from '../utils/balance';

/** The balance colours (docs/product.md#rules) as text, for light and dark themes. */
export const toneText: Record<BalanceTone, string> = {
  red: 'text-rose-600 dark:text-rose-400',
  orange: 'text-orange-600 dark:text-orange-400',
  green: 'text-emerald-600 dark:text-emerald-400',
};

/** The header button's chip: tinted background and border in the same colour. */
export const toneChip: Record<BalanceTone, string> = {
  red: 'border-rose-200 bg-rose-50 text-rose-700 hover:bg-rose-100 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-300 dark:hover:bg-rose-950',
  orange:
    'border-orange-200 bg-orange-50 text-orange-700 hover:bg-orange-100 dark:border-orange-900 dark:bg-orange-950/50 dark:text-orange-300 dark:hover:bg-orange-950',
  green:
    'border-emerald-200 bg-emerald-50 text-emerald-700 hover:bg-emerald-100 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-300 dark:hover:bg-emerald-950',
};
