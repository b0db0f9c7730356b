import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  NEW_ROOM,
  PROTOCOL_VERSION,
  errorResponses,
  joinRoomBodySchema,
  joinRoomResponseSchema,
} from '@xtalk/protocol';
import { bearerTokenOf, type Authenticator } from '../accounts/index.js';
import { HttpError } from '../http-errors.js';
import { joinerEndpointOrder } from './room-home.js';
import { REPLAY_LIMIT, type RoomLog, type RoomStart } from './room-log.js';
import type { RoomsRepo } from './rooms-repo.js';
import type { SessionHandoffs } from './session-handoffs.js';

/** Where a join leaves the room it read for the room's start on this node (decision 0265); the hub. */
export interface RoomStarts {
  /** Whether the room has members on this node (its start is behind it). */
  openHere(roomId: string): boolean;
  /** Called before the room is read: takes the read, unless the room changed on this node meanwhile. */
  expect(roomId: string): (start: RoomStart | undefined) => void;
}

/** POST /xtalk: create or join a room and get a session for the socket. */
export async function roomRoutes(
  app: FastifyInstance,
  deps: {
    rooms: RoomsRepo;
    authenticator: Authenticator;
    sessionTtlSeconds: number;
    /** Where the checked token, user and session wait for the socket this client opens next (decision 0138). */
    handoffs?: SessionHandoffs;
    /**
     * With both, a join into a room not open on this node reads its recent window instead of only
     * checking that it exists, and leaves it for the room's start here: the socket reads nothing.
     */
    log?: Pick<RoomLog, 'recentWindow'>;
    starts?: RoomStarts;
    /** PUBLIC_WS_ENDPOINTS: where the client may open the socket, told with every session. */
    socketEndpoints?: readonly string[];
    /**
     * A hot room's spread (decision 0250): how many people are in a room on every node, and how many of
     * one room a node takes before the room's next joiners go on to its next node.
     */
    spread?: { people: (roomId: string) => Promise<number>; perNode: number };
  },
) {
  const schema = {
    tags: [ApiTag.rooms],
    summary: 'Create or join a room: a session for the socket',
    security: ApiSecurity.bearer,
    body: joinRoomBodySchema,
    response: { 200: joinRoomResponseSchema, ...errorResponses(400, 401, 404) },
  };
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(ApiPath.join, { ...deps.authenticator.signedInFirst, schema }, async (request) => {
    // the token is kept with the session for the socket this client opens next (decision 0138)
    const token = bearerTokenOf(request);
    const { user, claims } = await deps.authenticator.fromRequest(request);
    const { body } = request;
    let roomId: string;
    if (body.roomId === null || body.roomId === NEW_ROOM) {
      const created = await deps.rooms.openRoom(user.id);
      roomId = created.id;
      // nothing is in a room before it exists, so it cannot change before the read
      deps.starts?.expect(roomId)({ position: created.position, messages: [], limit: REPLAY_LIMIT });
      request.log.info({ room: roomId, user: user.id }, 'room created');
    } else {
      roomId = body.roomId;
      await readRoom(roomId);
    }
    await deps.rooms.recordMembership(user.id, roomId);
    const session = await deps.rooms.createSession(user.id, roomId, deps.sessionTtlSeconds);
    deps.handoffs?.hold({ session, user, claims, token: token! });
    const endpoints = deps.socketEndpoints ?? [];
    return {
      sessionId: session.id,
      roomId,
      protocolVersion: PROTOCOL_VERSION,
      ...(endpoints.length > 0
        ? { socketEndpoints: [...endpoints], roomEndpoints: await joinerOrder(roomId, user.id, endpoints) }
        : {}),
    };
  });

  /** Checks the room exists; read whole and left for its start when it is not open on this node. */
  async function readRoom(roomId: string): Promise<void> {
    const { log, starts } = deps;
    if (!log || !starts || starts.openHere(roomId)) {
      if (await deps.rooms.roomExists(roomId)) return;
    } else {
      const offer = starts.expect(roomId);
      let start: RoomStart | undefined;
      try {
        const { position, messages } = await log.recentWindow(roomId, REPLAY_LIMIT);
        if (position) start = { position, messages, limit: REPLAY_LIMIT };
      } finally {
        offer(start);
      }
      if (start) return;
    }
    throw new HttpError(404, `Room ${roomId} does not exist.`, 'room_not_found');
  }

  /** The room's order for this joiner; a count that cannot be had (Redis away) counts as a small room. */
  async function joinerOrder(roomId: string, userId: string, endpoints: readonly string[]) {
    const { spread } = deps;
    const people = spread && endpoints.length > 1 ? await spread.people(roomId).catch(() => 0) : 0;
    return joinerEndpointOrder(roomId, endpoints, { userId, people, perNode: spread?.perNode ?? Infinity });
  }
}
