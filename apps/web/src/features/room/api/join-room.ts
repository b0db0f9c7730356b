import { ApiPath, type JoinRoomResponse } from '@xtalk/protocol';
import { request } from '#web/lib/api-client';
import { loadRoomSchemas } from '#web/lib/load-room-schemas';

/** POST /xtalk: a session for a room (null = create a new one). */
export async function joinRoom(
  token: string,
  roomId: string | null,
  language?: string,
  signal?: AbortSignal,
): Promise<JoinRoomResponse> {
  const [body, { joinRoomResponseSchema }] = await Promise.all([
    request<unknown>('POST', ApiPath.join, {
      token,
      body: { action: 'join', roomId, ...(language ? { language } : {}) },
      ...(signal ? { signal } : {}),
    }),
    loadRoomSchemas(),
  ]);
  return joinRoomResponseSchema.parse(body);
}
