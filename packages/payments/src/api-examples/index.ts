import type { ApiExamples } from '@xtalk/service-base';
import { PURCHASE_EXAMPLES } from './purchases.js';
import { WALLET_EXAMPLES } from './wallets.js';

/** The payment routes' examples, shown by the server's document and the standalone service's alike. */
export const PAYMENT_API_EXAMPLES: ApiExamples = { ...PURCHASE_EXAMPLES, ...WALLET_EXAMPLES };
