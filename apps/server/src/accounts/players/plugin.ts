import fp from 'fastify-plugin';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { createPlayerDeletion } from '../own-data/delete-player.js';
import { ownDataRoutes } from '../own-data/own-data-routes.js';
import type { PlayerRecords } from '../own-data/player-records.js';
import { playerRoutes } from './player-routes.js';

/*
 * The player API: a player's profile and linked sign-ins, for the player and for the admin key; and a
 * person's own data (deleting the account, the export), reaching other modules through `records`.
 */

export interface PlayersPluginOptions {
  config: Config;
  clock: Clock;
  /** What other modules hold of a player: the port accounts declares, filled in by the composition. */
  records: PlayerRecords;
}

export const playersPlugin = fp<PlayersPluginOptions>(
  async (app, { config, clock, records }) => {
    const { users, links, authenticator, sessionEnds } = app.xtalkAuth;
    const db = app.xtalkDb;
    const adminKey = config.ADMIN_API_KEY;
    await app.register(playerRoutes, { users, links, authenticator, adminKey });
    const deletion = createPlayerDeletion({ db, records, sessionEnds });
    await app.register(ownDataRoutes, { db, clock, authenticator, deletion, records, adminKey });
  },
  { name: 'xtalk-players', dependencies: ['xtalk-auth'] },
);
