import type { MessageFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { NewMessage, RoomsRepo, StoredMessage } from './rooms-repo.js';

/** Where a stored message goes next: out to the room, and on to whatever translates it. */
export interface MessageOutlets {
  /** Must not throw once the message is stored (the hub recovers a failed fan-out from the log). */
  broadcast(roomId: string, frame: MessageFrame): Promise<void>;
  /** Called after the message is out; must not block (translation runs in the background). */
  onStored?(roomId: string, message: MessageFrame, author: { userId: string }): void;
}

/**
 * What a message needs to be posted: who, where, in which language, what (and the client's id for it).
 * `clipId`: the streamed voice clip it ends; the live frame carries it so listeners replace that clip's
 * caption (not stored: a replay comes after the caption is gone).
 */
export type PostMessage = NewMessage & { clipId?: string | undefined };

/**
 * The one path a message takes, typed or spoken: stored first, so nothing acknowledged is lost, then
 * fanned out, then handed to translation. A resend of a stored client id is stored, fanned out and
 * translated once: the stored message comes back marked as a duplicate, for the sender alone.
 */
export function createChatService(
  repo: Pick<RoomsRepo, 'insertMessage' | 'findByClientId'>,
  outlets: MessageOutlets,
  logger: FastifyBaseLogger,
) {
  return {
    /** The message an author already stored under a client id (a voice resend skips transcribing). */
    findByClientId: (userId: string, clientId: string) => repo.findByClientId(userId, clientId),

    async post(input: PostMessage): Promise<StoredMessage> {
      const { clipId, ...row } = input;
      const inserted = await repo.insertMessage(row);
      const stored = clipId ? { ...inserted, message: { ...inserted.message, clipId } } : inserted;
      if (stored.duplicate) return stored;
      const { message } = stored;
      try {
        await outlets.broadcast(input.roomId, message);
      } catch (error) {
        // Stored is stored: a failed fan-out must never make the sender retry (and double) it.
        logger.error({ err: error, roomId: input.roomId }, 'message fan-out failed after it was stored');
      }
      try {
        outlets.onStored?.(input.roomId, message, { userId: input.userId });
      } catch (error) {
        logger.error({ err: error, roomId: input.roomId }, 'message hand-off to translation failed');
      }
      return stored;
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
