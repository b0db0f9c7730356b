import fp from 'fastify-plugin';
import { TRANSLATION_CLOSE_MS } from './options.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createTranslationService, type TranslationService } from './index.js';
import { shareSupersession } from './shared-supersession.js';
import type { TranslationStore } from './ports.js';

/* Translation of every message into the room's languages, and corrections shared across nodes. */

declare module 'fastify' {
  interface FastifyInstance {
    xtalkTranslation: {
      service: TranslationService;
      /** A correction taken here also stops the old text's work on the node its message was posted on. */
      supersession: Awaited<ReturnType<typeof shareSupersession>>;
    };
  }
}

export interface TranslationPluginOptions {
  config: Config;
  clock: Clock;
  /** Where translations are stored and context is read: rooms' tables, joined by the composition. */
  store: TranslationStore;
}

export const translationPlugin = fp<TranslationPluginOptions>(
  async (app, { config, clock, store }) => {
    const hub = app.xtalkHub;
    const service = createTranslationService({
      config,
      provider: app.xtalkAi,
      output: hub,
      users: hub,
      // speech only for the languages someone in the room listens in (decision 0137)
      listeners: app.xtalkPresence,
      store,
      meter: app.xtalkCredits.meter,
      glossary: app.xtalkGlossary,
      logger: app.log,
      clock,
      // without a drain (tests, a failed start) a translation still streaming holds the close this long
      options: { closeTimeoutMs: TRANSLATION_CLOSE_MS },
      metrics: app.xtalkMetrics?.report,
    });
    const supersession = await shareSupersession(app.xtalkBus, service, app.log);
    app.decorate('xtalkTranslation', { service, supersession });
  },
  {
    name: 'xtalk-translation',
    dependencies: [
      'xtalk-store',
      'xtalk-bus',
      'xtalk-ai',
      'xtalk-credits',
      'xtalk-delivery',
      'xtalk-glossary',
    ],
  },
);
