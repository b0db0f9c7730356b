import { describe, expect, it } from 'vitest';
import { messageFrame, type MessageEditedFrame } from '@xtalk/protocol';
import { frameForVersion, jsonForVersion } from './legacy-frames.js';

const edit: MessageEditedFrame = {
  type: 'messageEdited',
  id: 1000,
  message: 'fixed',
  editedAt: 2000,
  username: 'g-1',
  displayUsername: 'BraveOtter',
  language: 'en',
  offset: 7,
};

describe('frames for older protocol versions', () => {
  it('sends a correction to a client below 3 as the message it became, which that client parses', () => {
    const legacy = frameForVersion(edit, 2);
    expect(messageFrame.parse(legacy)).toEqual({
      type: 'message',
      id: 1000,
      username: 'g-1',
      displayUsername: 'BraveOtter',
      message: 'fixed',
      language: 'en',
      timestamp: 1000,
      translations: {},
      isTutorial: false,
      offset: 7,
    });
    expect(frameForVersion(edit, 3)).toBe(edit);
  });

  it('rewrites serialised frames only when needed, whatever the key order (jsonb reorders)', () => {
    const { type: _type, ...rest } = edit;
    const reordered = Buffer.from(JSON.stringify({ ...rest, type: 'messageEdited' }));
    expect(JSON.parse(jsonForVersion(reordered, 1).toString()).type).toBe('message');
    const same = Buffer.from(JSON.stringify(edit));
    expect(jsonForVersion(same, 3)).toBe(same);
    // a message whose text merely quotes the marker is not a correction
    const quoting = Buffer.from(JSON.stringify({ type: 'message', message: '"type":"messageEdited"' }));
    expect(jsonForVersion(quoting, 1)).toBe(quoting);
  });
});
