import { randomUUID } from 'node:crypto';
import type { EditMessageFrame, ErrorCode, ErrorFrame, RetranslateFrame } from '@xtalk/protocol';
import type { ConnectionCore } from './connection-core.js';

/*
 * editMessage (protocol 3; docs/decisions/0130-corrections.md): the author's correction of one of their
 * messages in this room. The rooms module decides (author, window, room) and stores; a refusal is
 * answered here with its code and changes nothing. The room, the author included, is told by
 * messageEdited, so the answer to a stored correction is that frame, like a chat's is its message.
 */
export async function editMessage(core: ConnectionCore, frame: EditMessageFrame) {
  if (core.state !== 'joined') return core.sendError('not_joined', 'Send setUsername before editing.');
  const outcome = await core.deps.chat.edit({
    roomId: core.roomId,
    userId: core.user.id,
    id: frame.id,
    text: frame.message,
  });
  if (!outcome.ok) core.sendError(outcome.code, outcome.message);
}

/**
 * retranslate (protocol 7): the author's "Try again" for a message's failed translations. A frame without
 * a requestId is an ask of its own; a refusal names the request it answers.
 */
export async function retranslate(core: ConnectionCore, frame: RetranslateFrame) {
  if (core.state !== 'joined') return core.sendError('not_joined', 'Send setUsername before retrying.');
  const { requestId = randomUUID() } = frame;
  const outcome = await core.deps.chat.retranslate({
    roomId: core.roomId,
    userId: core.user.id,
    id: frame.id,
    requestId,
  });
  if (outcome.ok) return;
  const answer = 'refusal' in outcome ? outcome.refusal : errorOf(outcome.code, outcome.message);
  core.sendFrame(frame.requestId ? { ...answer, requestId: frame.requestId } : answer);
}

const errorOf = (code: ErrorCode, message: string): ErrorFrame => ({ type: 'error', code, message });
