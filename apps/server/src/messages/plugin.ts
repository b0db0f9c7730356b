import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { createChat, type Chat } from './chat.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's message path (voice and the gateway post through it) and its fair queue (health reads it). */
    xtalkMessages: Chat;
  }
}

/**
 * The message path: a message is stored in its room's turn, fanned out through the hub, then handed to
 * translation (and a correction to supersession). It comes after all three, and before voice and the
 * gateway, which post through it.
 */
export const messagesPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const { service: translation, supersession } = app.xtalkTranslation;
    const outlets = {
      onMessage: translation.onMessage,
      onEdited: supersession.onEdited,
      retranslate: translation.retranslate,
    };
    app.decorate('xtalkMessages', createChat(config, app.xtalkRooms.repo, app.xtalkHub, outlets, app.log));
  },
  { name: 'xtalk-messages', dependencies: ['xtalk-rooms', 'xtalk-delivery', 'xtalk-translation'] },
);
