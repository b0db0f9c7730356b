import { z } from 'zod';

/**
 * POST /xtalk's answer: the session for the room joined. In a module of its own, apart from http.ts, so
 * the room screen, which parses it, does not build every other HTTP schema with it (decision 0084).
 */
export const joinRoomResponseSchema = z.object({
  sessionId: z.string(),
  roomId: z.string(),
  /**
   * The protocol version of the server that answered (5 and later): from 5 the socket's URL may carry the
   * hello (`&hello=` and the setUsername frame's JSON), and READY follows the 101 at once (decision 0141).
   */
  protocolVersion: z.number().int().optional(),
});
export type JoinRoomResponse = z.infer<typeof joinRoomResponseSchema>;
