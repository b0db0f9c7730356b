import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { displayNameOf } from '../accounts/index.js';
import { createGlossaryRepo, createGlossarySource, glossaryRoutes, MEMBER_NAMES_LIMIT } from './index.js';

/*
 * Room glossaries: the API that edits them, and the view the translation service and summaries read per
 * message (the entries, and the members' display names, which are never translated).
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** A room's glossary as translations and summaries read it. */
    xtalkGlossary: ReturnType<typeof createGlossarySource>;
  }
}

export const glossaryPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const db = app.xtalkDb;
    const rooms = app.xtalkRooms.repo;
    const { users, authenticator } = app.xtalkAuth;
    const source = createGlossarySource({
      // in the database's background lane: a glossary read never holds up a chat insert (decision 0117)
      repo: createGlossaryRepo({ ...db, ...db.background }),
      clock,
      async memberNames(roomId) {
        const members = await users.findByIds(await rooms.memberIds(roomId, MEMBER_NAMES_LIMIT));
        return members.map(displayNameOf);
      },
    });
    app.decorate('xtalkGlossary', source);
    await app.register(glossaryRoutes, {
      repo: createGlossaryRepo(db),
      rooms,
      languages: config.LANGUAGES,
      authenticator,
      broadcast: app.xtalkHub.broadcast,
    });
  },
  { name: 'xtalk-glossary', dependencies: ['xtalk-store', 'xtalk-auth', 'xtalk-rooms', 'xtalk-delivery'] },
);
