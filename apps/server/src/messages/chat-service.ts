import type { ErrorFrame, MessageEditedFrame, MessageFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { EditOutcome, MessageEdit } from '../rooms/index.js';
import type { RetranslateOutcome, RetranslateRequest } from '../rooms/index.js';
import type { NewMessage, RoomsRepo, StoredMessage } from '../rooms/index.js';

/** Where a stored message goes next: out to the room, and on to whatever translates it. */
export interface MessageOutlets {
  /** Must not throw once the message is stored (the hub recovers a failed fan-out from the log). */
  broadcast(roomId: string, frame: MessageFrame | MessageEditedFrame): Promise<void>;
  /** Called after the message is out; must not block (translation runs in the background). */
  onStored?(roomId: string, message: MessageFrame, author: { userId: string }): void;
  /**
   * Called once a correction is stored, before the room is told: the old work is superseded at once (no
   * piece of it may follow messageEdited) and the new text queued. Must not block.
   */
  onEdited?(roomId: string, message: MessageFrame, author: { userId: string }): void;
  /**
   * "Try again" for a message with failed languages: their work queued, paid by the author once per
   * `requestId`; resolves with the frame that refuses it when the author cannot pay (nothing queued).
   */
  onRetranslate?(
    roomId: string,
    message: MessageFrame,
    author: { userId: string },
    requestId: string,
  ): Promise<ErrorFrame | undefined>;
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
  repo: Pick<RoomsRepo, 'insertMessage' | 'findByClientId' | 'editMessage'> &
    Partial<Pick<RoomsRepo, 'insertMessages' | 'retranslatable'>>,
  outlets: MessageOutlets,
  logger: FastifyBaseLogger,
) {
  /** After storing: out to the room, then on to translation (a duplicate goes to neither). */
  async function passOn(input: PostMessage, inserted: StoredMessage): Promise<StoredMessage> {
    const { clipId } = input;
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
  }

  const rowOf = ({ clipId: _clipId, ...row }: PostMessage) => row;

  return {
    /** The message an author already stored under a client id (a voice resend skips transcribing). */
    findByClientId: (userId: string, clientId: string) => repo.findByClientId(userId, clientId),

    async post(input: PostMessage): Promise<StoredMessage> {
      return passOn(input, await repo.insertMessage(rowOf(input)));
    },

    /**
     * One room's waiting messages, stored together (one statement, decision 0112), then each passed
     * on as `post` would. Each message's outcome comes back in its place.
     *
     * The batch's broadcasts all leave before any is answered (decision 0268): each is handed to the
     * outlet in offset order within this turn, so they reach the bus in that order, and the room's turn
     * waits for their answers together. Waiting for each answer before sending the next would make a
     * turn as long as its batch, and a busy room's batches longer still, until its queue refuses posts.
     */
    async postMany(inputs: PostMessage[]): Promise<PromiseSettledResult<StoredMessage>[]> {
      const inserted = repo.insertMessages
        ? await repo.insertMessages(inputs.map(rowOf))
        : await Promise.all(inputs.map((input) => repo.insertMessage(rowOf(input)).then(settled, failed)));
      return Promise.all(
        inserted.map((result, index) =>
          result.status === 'fulfilled' ? passOn(inputs[index]!, result.value).then(settled) : result,
        ),
      );
    },

    /**
     * A correction by the message's author (docs/decisions/0130-corrections.md): stored and logged first,
     * then the old translation work superseded and the new queued, then the room told. A refusal changes
     * nothing and comes back for the caller to answer.
     */
    async edit(input: MessageEdit): Promise<EditOutcome> {
      const outcome = await repo.editMessage(input);
      if (!outcome.ok || 'unchanged' in outcome) return outcome;
      try {
        outlets.onEdited?.(input.roomId, outcome.message, { userId: input.userId });
      } catch (error) {
        logger.error({ err: error, roomId: input.roomId }, 'correction hand-off to translation failed');
      }
      try {
        await outlets.broadcast(input.roomId, outcome.frame);
      } catch (error) {
        logger.error({ err: error, roomId: input.roomId }, 'correction fan-out failed after it was stored');
      }
      return outcome;
    },

    /**
     * "Try again" by the message's author: its failed languages queued as new work (the pipeline redoes
     * what is missing from its translations), paid before it is queued. A refusal changes nothing.
     */
    async retranslate(input: RetranslateRequest & { requestId: string }): Promise<RetranslateAnswer> {
      if (!repo.retranslatable || !outlets.onRetranslate)
        return { ok: false, code: 'not_failed', message: 'Translations are not made on this server.' };
      const outcome = await repo.retranslatable(input);
      if (!outcome.ok) return outcome;
      const author = { userId: input.userId };
      const refusal = await outlets.onRetranslate(input.roomId, outcome.message, author, input.requestId);
      return refusal ? { ok: false, refusal } : outcome;
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;

/** A "Try again" taken, refused by the rooms module (a code), or refused for credits (the whole frame). */
export type RetranslateAnswer = RetranslateOutcome | { ok: false; refusal: ErrorFrame };

const settled = (value: StoredMessage): PromiseSettledResult<StoredMessage> => ({
  status: 'fulfilled',
  value,
});
const failed = (reason: unknown): PromiseSettledResult<StoredMessage> => ({ status: 'rejected', reason });
