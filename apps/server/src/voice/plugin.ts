import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { voiceHandlersFor, type VoiceHandlers } from './voice-handlers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Voice input, whole clips and streamed ones: what the gateway hands binary and voice frames to. */
    xtalkVoice: VoiceHandlers;
  }
}

/**
 * Voice input: a clip is transcribed by the engines, then posted through the message path like a typed
 * message. It sits below the gateway, which hands it the frames, and knows nothing of sockets.
 */
export const voicePlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const handlers = voiceHandlersFor(config, {
      chat: app.xtalkMessages.chat,
      translation: app.xtalkTranslation.service,
      provider: app.xtalkAi,
      hub: app.xtalkHub,
      logger: app.log,
      clock,
      metrics: app.xtalkMetrics?.report,
    });
    app.decorate('xtalkVoice', handlers);
  },
  { name: 'xtalk-voice', dependencies: ['xtalk-ai', 'xtalk-metrics', 'xtalk-translation', 'xtalk-messages'] },
);
