import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  PAST_ROOMS_LIMIT,
  errorResponses,
  roomHistoryResponseSchema,
  type RoomHistoryResponse,
} from '@xtalk/protocol';
import { z } from 'zod';
import type { Authenticator } from '../accounts/index.js';
import { HttpError } from '../http-errors.js';
import type { Db } from '../store/index.js';

/*
 * Past Rooms: the rooms a signed-in user joined, from the memberships POST /xtalk
 * records (added on the first join, updated on every one), so the history follows them to any device.
 */

export function createRoomHistory(db: Db) {
  return {
    async list(userId: string, limit = PAST_ROOMS_LIMIT): Promise<RoomHistoryResponse['rooms']> {
      const { rows } = await db.query<{ room_id: string; added_at: Date; updated_at: Date }>(
        `select room_id, added_at, updated_at from room_members where user_id = $1
         order by updated_at desc, room_id limit $2`,
        [userId, limit],
      );
      return rows.map((row) => ({
        roomId: row.room_id,
        added: new Date(row.added_at).getTime(),
        updated: new Date(row.updated_at).getTime(),
      }));
    },
    async clear(userId: string): Promise<void> {
      await db.query('delete from room_members where user_id = $1', [userId]);
    },
  };
}
export type RoomHistory = ReturnType<typeof createRoomHistory>;

export async function roomHistoryRoutes(
  app: FastifyInstance,
  deps: { history: RoomHistory; authenticator: Authenticator },
) {
  async function signedIn(request: Parameters<Authenticator['fromRequest']>[0]) {
    const { user } = await deps.authenticator.fromRequest(request);
    if (user.provider === 'guest') throw new HttpError(403, 'Login to view room history.', 'login_required');
    return user;
  }

  const api = app.withTypeProvider<ZodTypeProvider>();
  const about = { tags: [ApiTag.rooms], security: ApiSecurity.bearer };
  const list = {
    summary: 'The rooms the signed-in player was in, newest first',
    response: { 200: roomHistoryResponseSchema, ...errorResponses(401, 403) },
  };
  api.get(ApiPath.roomHistory, { schema: { ...about, ...list } }, async (request, reply) => {
    const user = await signedIn(request);
    reply.header('cache-control', 'no-store');
    return { rooms: await deps.history.list(user.id) };
  });

  const clear = {
    summary: "Forget the signed-in player's room history",
    response: { 204: z.null().describe('Forgotten.'), ...errorResponses(401, 403) },
  };
  api.delete(ApiPath.roomHistory, { schema: { ...about, ...clear } }, async (request, reply) => {
    const user = await signedIn(request);
    await deps.history.clear(user.id);
    return reply.code(204).send(null);
  });
}
