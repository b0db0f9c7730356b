import { SYSTEM_USERNAME } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { initialChatState } from './chat-items';
import { toDisplayItems } from './display-items';
import { chatReducer } from './messages-reducer';
import { tutorialFrames } from './tutorial';

describe('XTalkChan tutorial', () => {
  it('speaks the interface language, as the mascot, marked isTutorial', () => {
    for (const language of ['en', 'ja'] as const) {
      const frames = tutorialFrames(language, 1_000_000);
      expect(frames).toHaveLength(4);
      for (const frame of frames) {
        expect(frame).toMatchObject({
          username: SYSTEM_USERNAME,
          displayUsername: 'XTalkChan',
          isTutorial: true,
        });
        expect(frame.language).toBe(language);
      }
      expect(frames.map((f) => f.message).join(' ')).toMatch(language === 'ja' ? /マイク/ : /mic/);
    }
  });

  it('reads greeting first in the newest-first list', () => {
    let state = initialChatState;
    for (const frame of tutorialFrames('en', 5000)) state = chatReducer(state, { type: 'frame', frame });
    const shown = toDisplayItems(state.items);
    expect(shown[0]?.kind === 'message' && shown[0].message.message).toMatch(/^Hi, I'm XTalkChan/);
  });
});
