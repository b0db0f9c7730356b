import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Meter } from '../translation/index.js';
import {
  createCreditMeter,
  createGuestCheck,
  createLedger,
  dailyAllowance,
  startBalanceEvents,
} from './index.js';
import type { Ledger } from './ledger.js';

/*
 * Credits: the ledger with its daily allowances, the meter that makes authors pay for AI work, and the
 * balance frames a change to someone's credits sends them.
 */

export interface Credits {
  ledger: Ledger;
  isGuest(userId: string): Promise<boolean>;
  /** What AI work is charged to: the ledger's meter, or the one given (tests, bench). */
  meter: Meter;
  /** Stops the ledger's meter (the lifecycle plugin's shutdown order). */
  close(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    xtalkCredits: Credits;
    /** Stops sending balance frames (the lifecycle plugin's shutdown order). */
    xtalkBalanceEvents: { close(): Promise<void> };
  }
}

export interface CreditsPluginOptions {
  config: Config;
  clock: Clock;
  /** Replaces the credits meter (tests and the bench that measure the pipeline without the ledger). */
  meter?: Meter;
}

export const creditsPlugin = fp<CreditsPluginOptions>(
  async (app, { config, clock, meter }) => {
    const isGuest = createGuestCheck(app.xtalkAuth.users, clock);
    const ledger = createLedger({
      db: app.xtalkDb,
      clock,
      dailyAllowance: dailyAllowance(isGuest, {
        accountDaily: config.CREDITS_DAILY_FREE,
        guestDaily: config.CREDITS_GUEST_DAILY,
      }),
    });
    const own = createCreditMeter({
      ledger,
      isGuest,
      clock,
      logger: app.log,
      metrics: app.xtalkMetrics?.report,
    });
    app.decorate('xtalkCredits', { ledger, isGuest, meter: meter ?? own, close: () => own.close() });
  },
  { name: 'xtalk-credits', dependencies: ['xtalk-store', 'xtalk-auth', 'xtalk-metrics'] },
);

/**
 * The balance frames: a change to someone's credits, on any node, reaches their sockets here, and work
 * held for want of credits resumes. Registered once the room hub and the translation service exist.
 */
export const balanceEventsPlugin = fp<{ clock: Clock }>(
  async (app, { clock }) => {
    const { ledger, isGuest } = app.xtalkCredits;
    const events = await startBalanceEvents({
      ledger,
      bus: app.xtalkBus,
      users: app.xtalkHub,
      isGuest,
      onGrown: app.xtalkTranslation.service.resume,
      clock,
      logger: app.log,
    });
    app.decorate('xtalkBalanceEvents', events);
  },
  { name: 'xtalk-balance-events', dependencies: ['xtalk-credits', 'xtalk-delivery', 'xtalk-translation'] },
);
