import { SYSTEM_DISPLAY_NAME, SYSTEM_USERNAME, type MessageFrame, type UiLanguage } from '@xtalk/protocol';
import { translate, type MessageKey } from '#web/lib/i18n';

// Top to bottom as the list shows them (newest first): greeting, how to talk, the hint, how to invite.
const STEPS: MessageKey[] = ['tutorial.welcome', 'tutorial.talk', 'tutorial.hint', 'tutorial.invite'];

/**
 * XTalkChan's tutorial: shown on a first connection with no chat log, only to
 * this user and in their language, so it is made here and never sent to the room (decision 0080). The
 * messages are `isTutorial` and carry the mascot's username, so they look and colour like the mascot's.
 */
export function tutorialFrames(language: UiLanguage, now: number): MessageFrame[] {
  const frames: MessageFrame[] = STEPS.map((key, index) => ({
    type: 'message',
    // Ids are timestamps (and order the list); the greeting is the newest, so it reads first.
    id: now - index,
    timestamp: now - index,
    username: SYSTEM_USERNAME,
    displayUsername: SYSTEM_DISPLAY_NAME,
    message: translate(language, key),
    language,
    translations: {},
    isTutorial: true,
  }));
  // The log is kept oldest first: hand them over in that order.
  return frames.reverse();
}
