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
    expect(JSON.parse(String(jsonForVersion(reordered, 1))).type).toBe('message');
    const same = Buffer.from(JSON.stringify(edit));
    expect(jsonForVersion(same, 3)).toBe(same);
    // a message whose text merely quotes the marker is not a correction
    const quoting = Buffer.from(JSON.stringify({ type: 'message', message: '"type":"messageEdited"' }));
    expect(jsonForVersion(quoting, 1)).toBe(quoting);
  });

  it('sends a client below 3 no live caption and no chunk of a clip still being spoken', () => {
    const caption = {
      type: 'captionPartial',
      clipId: 'clip-1',
      username: 'g-1',
      displayUsername: 'BraveOtter',
      language: 'en',
      text: 'hello there',
    } as const;
    const clipChunk = {
      type: 'translationChunk',
      originalTimestamp: 0,
      clipId: 'clip-1',
      targetLanguage: 'ja',
      chunk: 'こんにちは',
    } as const;
    const messageChunk = { ...clipChunk, originalTimestamp: 1000 };
    for (const version of [1, 2]) {
      expect(frameForVersion(caption, version)).toBeUndefined();
      expect(frameForVersion(clipChunk, version)).toBeUndefined();
      expect(jsonForVersion(Buffer.from(JSON.stringify(caption)), version)).toBeUndefined();
      expect(jsonForVersion(Buffer.from(JSON.stringify(clipChunk)), version)).toBeUndefined();
      const { type: _type, ...rest } = clipChunk;
      expect(
        jsonForVersion(Buffer.from(JSON.stringify({ ...rest, type: clipChunk.type })), version),
      ).toBeUndefined();
      const chunkJson = Buffer.from(JSON.stringify(messageChunk));
      expect(jsonForVersion(chunkJson, version)).toBe(chunkJson);
    }
    const captionJson = Buffer.from(JSON.stringify(caption));
    expect(jsonForVersion(captionJson, 3)).toBe(captionJson);
    expect(frameForVersion(clipChunk, 3)).toBe(clipChunk);
  });
});
