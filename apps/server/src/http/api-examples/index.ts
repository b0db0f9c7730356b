import type { ApiExamples } from '@xtalk/service-base';
import { PAYMENT_API_EXAMPLES } from '@xtalk/payments';
import { ACCOUNT_EXAMPLES } from './accounts.js';
import { PLAYER_EXAMPLES } from './players.js';
import { ROOM_EXAMPLES } from './rooms.js';

/** Every operation's examples, the payment routes' included, as the document shows them. */
export const API_EXAMPLES: ApiExamples = {
  ...ACCOUNT_EXAMPLES,
  ...PLAYER_EXAMPLES,
  ...ROOM_EXAMPLES,
  ...PAYMENT_API_EXAMPLES,
};
