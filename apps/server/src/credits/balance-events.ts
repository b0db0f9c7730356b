import type { ServerFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../bus/index.js';
import type { Clock } from '../clock.js';
import type { Ledger } from './ledger.js';

/*
 * What follows a committed change of a balance, on every node: the user's connections get
 * `system BALANCE` (through the user's bus channel, so connections on other nodes get it too; guests see no
 * balance and get none), and when the balance grew (a top-up, a purchase, an adjustment) every node's
 * translation service hears it on one channel so work refused for credits resumes wherever it waits.
 */

const GROWN_CHANNEL = 'xtalk:credits:grown';

export interface BalanceEventsDeps {
  ledger: Ledger;
  bus: Bus;
  users: { sendToUser(userId: string, frame: ServerFrame): Promise<void> };
  isGuest(userId: string): Promise<boolean>;
  /** The balance of `userId` grew (called on every node). */
  onGrown(userId: string): void;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export async function startBalanceEvents(deps: BalanceEventsDeps): Promise<{ close(): Promise<void> }> {
  const { ledger, bus, clock, logger } = deps;
  /** Per user, one notification after another, each reading the balance as committed last. */
  const chains = new Map<string, Promise<void>>();

  async function sendBalance(userId: string): Promise<void> {
    if (await deps.isGuest(userId)) return;
    // Read now rather than use the change's own numbers: two changes committing close together may tell
    // in either order, and the last frame must carry the last balance.
    const balance = await ledger.peek(userId);
    await deps.users.sendToUser(userId, {
      type: 'system',
      message: 'BALANCE',
      timestamp: clock.now(),
      balance,
    });
  }

  const stopListening = ledger.onChange(({ userId, txn }) => {
    const previous = chains.get(userId) ?? Promise.resolve();
    const next = previous
      .then(() => sendBalance(userId))
      .catch((error: unknown) => logger.warn({ err: error, userId }, 'credits: BALANCE frame failed'))
      .finally(() => {
        if (chains.get(userId) === next) chains.delete(userId);
      });
    chains.set(userId, next);
    if (txn.amount > 0 && txn.kind !== 'refund') {
      bus.publish(GROWN_CHANNEL, Buffer.from(userId)).catch((error: unknown) => {
        logger.warn({ err: error, userId }, 'credits: could not announce a grown balance');
      });
    }
  });
  const unsubscribe = await bus.subscribe(GROWN_CHANNEL, (payload) => deps.onGrown(payload.toString()));
  return {
    async close() {
      stopListening();
      await unsubscribe();
      await Promise.allSettled([...chains.values()]);
    },
  };
}
