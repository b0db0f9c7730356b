import type { FastifyInstance } from 'fastify';
import {
  ApiPath,
  NEW_ROOM,
  PROTOCOL_VERSION,
  joinRoomBodySchema,
  type JoinRoomResponse,
} from '@xtalk/protocol';
import { bearerTokenOf, type Authenticator } from '../accounts/index.js';
import { HttpError, parseOr400 } from '../http-errors.js';
import type { RoomsRepo } from './rooms-repo.js';
import type { SessionHandoffs } from './session-handoffs.js';

/** POST /xtalk: create or join a room and get a session for the socket. */
export async function roomRoutes(
  app: FastifyInstance,
  deps: {
    rooms: RoomsRepo;
    authenticator: Authenticator;
    sessionTtlSeconds: number;
    /** Where the checked token, user and session wait for the socket this client opens next (decision 0138). */
    handoffs?: SessionHandoffs;
    /** PUBLIC_WS_ENDPOINTS: where the client may open the socket, told with every session. */
    socketEndpoints?: readonly string[];
  },
) {
  app.post(ApiPath.join, async (request): Promise<JoinRoomResponse> => {
    // the token is kept with the session for the socket this client opens next (decision 0138)
    const token = bearerTokenOf(request);
    const { user, claims } = await deps.authenticator.fromToken(token);
    const body = parseOr400(joinRoomBodySchema, request.body);
    let roomId: string;
    if (body.roomId === null || body.roomId === NEW_ROOM) {
      roomId = await deps.rooms.createRoom(user.id);
      request.log.info({ room: roomId, user: user.id }, 'room created');
    } else {
      roomId = body.roomId;
      if (!(await deps.rooms.roomExists(roomId)))
        throw new HttpError(404, `Room ${roomId} does not exist.`, 'room_not_found');
    }
    await deps.rooms.recordMembership(user.id, roomId);
    const session = await deps.rooms.createSession(user.id, roomId, deps.sessionTtlSeconds);
    deps.handoffs?.hold({ session, user, claims, token: token! });
    const endpoints = deps.socketEndpoints ?? [];
    return {
      sessionId: session.id,
      roomId,
      protocolVersion: PROTOCOL_VERSION,
      ...(endpoints.length > 0 ? { socketEndpoints: [...endpoints] } : {}),
    };
  });
}
