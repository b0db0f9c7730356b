import type { MessageFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { NewMessage, RoomsRepo } from './rooms-repo.js';

/** Where a stored message goes next: out to the room, and on to whatever translates it. */
export interface MessageOutlets {
  broadcast(roomId: string, frame: MessageFrame): Promise<void>;
  /** Called after the message is out; must not block (translation runs in the background). */
  onStored?(roomId: string, message: MessageFrame, author: { userId: string }): void;
}

/** What a message needs to be posted: who, where, in which language, what. */
export type PostMessage = NewMessage;

/**
 * The one path a message takes, typed or (later) spoken: stored first, so nothing acknowledged is lost,
 * then fanned out, then handed to translation.
 */
export function createChatService(repo: RoomsRepo, outlets: MessageOutlets, logger: FastifyBaseLogger) {
  return {
    async post(input: PostMessage): Promise<MessageFrame> {
      const message = await repo.insertMessage(input);
      await outlets.broadcast(input.roomId, message);
      try {
        outlets.onStored?.(input.roomId, message, { userId: input.userId });
      } catch (error) {
        logger.error({ err: error, roomId: input.roomId }, 'message hand-off to translation failed');
      }
      return message;
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
