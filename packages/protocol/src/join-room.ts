import { z } from 'zod';

/**
 * POST /xtalk's answer: the session for the room joined. In a module of its own, apart from http.ts, so
 * the room screen, which parses it, does not build every other HTTP schema with it (decision 0084).
 */
export const joinRoomResponseSchema = z.object({ sessionId: z.string(), roomId: z.string() });
export type JoinRoomResponse = z.infer<typeof joinRoomResponseSchema>;
