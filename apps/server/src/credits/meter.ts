import { randomUUID } from 'node:crypto';
import { creditCost } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { MetricsReport } from '../metrics/index.js';
import type { Clock } from '../clock.js';
import { InsufficientCreditsError, type Charge, type Meter, type Usage } from '../translation/index.js';
import type { Ledger } from './ledger.js';
import { nextTokyoMidnight } from './tokyo-day.js';

/*
 * The Meter the translation service calls before every engine call: the author pays the price table's
 * amount from their balance (free first, then premium), or the call is refused whole. A refusal also sets
 * a wake-up at the next Tokyo midnight: reading the balance then applies the daily top-up, whose change
 * event resumes the refused work even if the author sends nothing more.
 */

export const NO_CREDITS_NOTICE =
  'You have run out of credits, so your messages are delivered untranslated. Free credits are topped up at midnight Tokyo time, or buy more from your balance.';
export const GUEST_LIMIT_NOTICE =
  "You have used today's translation allowance for guests, so your messages are delivered untranslated. Sign in to keep translating.";

export interface CreditMeterDeps {
  ledger: Ledger;
  isGuest(userId: string): Promise<boolean>;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Where credits spent and refunded are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'creditsSpent' | 'creditsRefunded'> | undefined;
}

function unitsOf(usage: Usage): number {
  return usage.task === 'transcription' ? (usage.audioSeconds ?? 0) : (usage.characters ?? 0);
}

export function createCreditMeter(deps: CreditMeterDeps): Meter & { close(): void } {
  const { ledger, clock, logger } = deps;
  const wakeUps = new Map<string, NodeJS.Timeout>();

  function wakeAtMidnight(userId: string): void {
    if (wakeUps.has(userId)) return;
    const delay = Math.max(1000, nextTokyoMidnight(clock.now()) - clock.now() + 1000);
    const timer = setTimeout(() => {
      wakeUps.delete(userId);
      ledger.balance(userId).catch((error: unknown) => {
        logger.warn({ err: error, userId }, 'credits: midnight top-up failed');
      });
    }, delay);
    timer.unref();
    wakeUps.set(userId, timer);
  }

  async function refusal(userId: string): Promise<InsufficientCreditsError> {
    wakeAtMidnight(userId);
    const guest = await deps.isGuest(userId);
    return new InsufficientCreditsError(guest ? GUEST_LIMIT_NOTICE : NO_CREDITS_NOTICE, guest);
  }

  return {
    async charge(usage: Usage): Promise<Charge> {
      const amount = creditCost(usage.task, unitsOf(usage));
      const reference = [usage.roomId, usage.messageId, usage.language].filter((part) => part !== undefined);
      const spent = await ledger.spend({
        userId: usage.userId,
        // one charge per engine call: a fresh key each time, unless the call is part of a request that
        // a client may send again (the ledger answers a key it has seen with the row it made)
        key: `spend:${usage.key ?? randomUUID()}`,
        cause: usage.task,
        reference: reference.join('/'),
        amount,
      });
      if (!spent.ok) throw await refusal(usage.userId);
      const txnId = spent.txn.id;
      deps.metrics?.creditsSpent(amount);
      return {
        refund: async () => {
          await ledger.reverse({
            userId: usage.userId,
            key: `refund:${txnId}`,
            cause: 'failed',
            txnId,
            kind: 'refund',
          });
          deps.metrics?.creditsRefunded(amount);
        },
      };
    },
    async affords(usages: readonly Usage[]): Promise<void> {
      const [first] = usages;
      if (!first) return;
      const amount = usages.reduce((sum, usage) => sum + creditCost(usage.task, unitsOf(usage)), 0);
      const { free, premium } = await ledger.balance(first.userId);
      if (free + premium < amount) throw await refusal(first.userId);
    },
    close() {
      for (const timer of wakeUps.values()) clearTimeout(timer);
      wakeUps.clear();
    },
  };
}
