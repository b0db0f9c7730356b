import { randomUUID } from 'node:crypto';
import type { EditMessageFrame, RetranslateFrame } from '@xtalk/protocol';
import type { ChatServices, Speaker } from './connection-ports.js';

/*
 * editMessage (protocol 3; docs/decisions/0130-corrections.md): the author's correction of one of their
 * messages in this room. The rooms module decides (author, window, room) and stores; a refusal is
 * answered here with its code and changes nothing. The room, the author included, is told by
 * messageEdited, so the answer to a stored correction is that frame, like a chat's is its message.
 */
export async function editMessage(
  services: Pick<ChatServices, 'chat'>,
  author: Speaker,
  frame: EditMessageFrame,
) {
  if (author.state !== 'joined') return author.sendError('not_joined', 'Send setUsername before editing.');
  const outcome = await services.chat.edit({
    roomId: author.roomId,
    userId: author.user.id,
    id: frame.id,
    text: frame.message,
  });
  if (!outcome.ok) author.sendError(outcome.code, outcome.message);
}

/**
 * retranslate (protocol 7): the author's "Try again" for a message's failed translations. A frame without
 * a requestId is an ask of its own. A refusal does not echo the id: an error with a requestId answers a
 * summary, and clients already read it so.
 */
export async function retranslate(
  services: Pick<ChatServices, 'chat'>,
  author: Speaker,
  frame: RetranslateFrame,
) {
  if (author.state !== 'joined') return author.sendError('not_joined', 'Send setUsername before retrying.');
  const { requestId = randomUUID() } = frame;
  const outcome = await services.chat.retranslate({
    roomId: author.roomId,
    userId: author.user.id,
    id: frame.id,
    requestId,
  });
  if (outcome.ok) return;
  if ('refusal' in outcome) author.sendFrame(outcome.refusal);
  else author.sendError(outcome.code, outcome.message);
}
