import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { playerRoutes } from './player-routes.js';

/* The player API: a player's profile and linked sign-ins, for the player and for the admin key. */

export const playersPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const { users, links, authenticator } = app.xtalkAuth;
    await app.register(playerRoutes, { users, links, authenticator, adminKey: config.ADMIN_API_KEY });
  },
  { name: 'xtalk-players', dependencies: ['xtalk-auth'] },
);
