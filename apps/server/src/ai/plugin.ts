import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { createAiProvider, type AiProvider } from './index.js';

/* The AI engine (translation, speech, transcription) the configuration names, or the one given (bench). */

declare module 'fastify' {
  interface FastifyInstance {
    /** The AI engine every module that translates, transcribes or speaks calls. */
    xtalkAi: AiProvider;
  }
}

export interface AiPluginOptions {
  config: Config;
  /** Replaces the configured AI provider (the bench: fake engines of fixed latencies). */
  provider?: AiProvider;
}

export const aiPlugin = fp<AiPluginOptions>(
  async (app, { config, provider }) => {
    const ai = provider ?? createAiProvider(config, app.log);
    app.decorate('xtalkAi', ai);
    // local models load in the background from the start, not on the first message
    app.addHook('onReady', async () => {
      ai.warmUp?.().catch((error: unknown) => app.log.warn({ err: error }, 'AI engine warm-up failed'));
    });
  },
  { name: 'xtalk-ai' },
);
