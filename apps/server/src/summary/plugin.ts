import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createSummaries, type Summaries } from './index.js';

/* "Catch me up": a summary of what a room said while someone was away, in their language. */

declare module 'fastify' {
  interface FastifyInstance {
    xtalkSummaries: Summaries;
  }
}

export const summaryPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    app.decorate(
      'xtalkSummaries',
      createSummaries({
        provider: app.xtalkAi,
        meter: app.xtalkCredits.meter,
        messages: app.xtalkRooms.repo,
        glossary: app.xtalkGlossary,
        languages: config.LANGUAGES,
        clock,
        logger: app.log,
      }),
    );
  },
  { name: 'xtalk-summary', dependencies: ['xtalk-ai', 'xtalk-credits', 'xtalk-rooms', 'xtalk-glossary'] },
);
