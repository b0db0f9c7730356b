import type { MessageFrame } from '@xtalk/protocol';

/** A room message as the service receives it: alice's, in `language`, stamped with its own id. */
export function messageFrame(
  id: number,
  text: string,
  language = 'en',
  extra: Partial<MessageFrame> = {},
): MessageFrame {
  return {
    type: 'message',
    id,
    username: 'alice',
    message: text,
    language,
    timestamp: id,
    translations: {},
    isTutorial: false,
    ...extra,
  };
}
