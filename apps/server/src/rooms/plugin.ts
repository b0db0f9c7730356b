import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createRoomHistory, roomHistoryRoutes } from './history-routes.js';
import { createRoomLog, type RoomLog } from './room-log.js';
import { createRoomsRepo, type RoomsRepo } from './rooms-repo.js';
import { roomRoutes, type RoomStarts } from './routes.js';
import { createSessionHandoffs, type SessionHandoffs } from './session-handoffs.js';

/* Rooms: their members, messages and log of changes; joining (POST /xtalk) and a member's history. */

export interface Rooms {
  repo: RoomsRepo;
  /** The log a joiner or a resume replays from. */
  log: RoomLog;
  /** A join's checked token, user and session, waiting for the socket it opens next (decision 0138). */
  handoffs: SessionHandoffs;
}

declare module 'fastify' {
  interface FastifyInstance {
    xtalkRooms: Rooms;
  }
}

export const roomsPlugin = fp<{
  config: Config;
  clock: Clock;
  /** People in a room on every node, for a hot room's spread (decision 0250). */
  roomPeople: (roomId: string) => Promise<number>;
  /** Where a join leaves the room it read, for the room's start on this node (decision 0265). */
  roomStarts?: RoomStarts;
}>(
  async (app, { config, clock, roomPeople, roomStarts }) => {
    const db = app.xtalkDb;
    const { authenticator } = app.xtalkAuth;
    const repo = createRoomsRepo(db, clock, {
      editWindowSeconds: config.EDIT_WINDOW_SECONDS,
      seals: app.xtalkAuth.seals,
    });
    const handoffs = createSessionHandoffs(clock);
    const log = createRoomLog(db);
    app.decorate('xtalkRooms', { repo, log, handoffs });
    await app.register(roomHistoryRoutes, { history: createRoomHistory(db), authenticator });
    const sessionTtlSeconds = config.SESSION_TTL_SECONDS;
    await app.register(roomRoutes, {
      rooms: repo,
      authenticator,
      sessionTtlSeconds,
      handoffs,
      log,
      starts: roomStarts,
      socketEndpoints: config.PUBLIC_WS_ENDPOINTS,
      spread: { people: roomPeople, perNode: config.ROOM_PEOPLE_PER_NODE },
    });
  },
  { name: 'xtalk-rooms', dependencies: ['xtalk-store', 'xtalk-auth'] },
);
