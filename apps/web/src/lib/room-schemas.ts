/*
 * The schemas the room screen parses the server's answers with, in a chunk of their own: building them
 * (and evaluating zod) is main-thread work the room's first render should not wait behind. Loaded by
 * loadRoomSchemas (lib/load-room-schemas.ts), never imported statically.
 */
export { joinRoomResponseSchema, serverFrameSchema } from '@xtalk/protocol';
