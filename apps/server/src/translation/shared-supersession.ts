import { randomUUID } from 'node:crypto';
import type { MessageFrame } from '@xtalk/protocol';
import type { Bus } from '../bus/index.js';
import type { Logger } from '../ai/index.js';
import type { Author, TranslationService } from './types.js';

/*
 * Corrections across nodes (docs/decisions/0121-streaming-remainder.md). The node that takes an edit
 * supersedes its own work on the old text (TranslationService.onEdited), but the old text may be being
 * translated on another node: the one its message was posted on. So every edit is announced on one bus
 * channel, before the room is told of it (same publisher, so other nodes hear the notice first), and
 * every other node supersedes whatever it runs for that message. Without this a listener got the old
 * translation's chunks, and its translationComplete last, after the correction.
 */

const CHANNEL = 'xtalk:superseded';

export async function shareSupersession(
  bus: Bus,
  translation: Pick<TranslationService, 'onEdited' | 'supersede'>,
  logger: Logger,
) {
  const node = randomUUID();
  const unsubscribe = await bus.subscribe(CHANNEL, (payload) => {
    try {
      const notice = JSON.parse(payload.toString()) as { node?: unknown; roomId?: unknown; id?: unknown };
      // this node's own edits were superseded when they were taken (and their new work is queued)
      if (notice.node === node || typeof notice.roomId !== 'string' || typeof notice.id !== 'number') return;
      translation.supersede(notice.roomId, notice.id);
    } catch (error) {
      logger.warn({ err: error }, 'translation: unreadable supersede notice');
    }
  });
  return {
    onEdited(roomId: string, message: MessageFrame, author: Author): void {
      translation.onEdited(roomId, message, author);
      const notice = Buffer.from(JSON.stringify({ node, roomId, id: message.id }));
      bus.publish(CHANNEL, notice).catch((error: unknown) => {
        logger.warn({ err: error, roomId }, 'translation: could not tell other nodes of a correction');
      });
    },
    close: unsubscribe,
  };
}
