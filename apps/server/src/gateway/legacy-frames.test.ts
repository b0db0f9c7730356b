import { describe, expect, it } from 'vitest';
import {
  messageFrame,
  RETRANSLATE_PROTOCOL_VERSION,
  type MessageEditedFrame,
  type MessageFrame,
  type ServerFrame,
  type SystemFrame,
} from '@xtalk/protocol';
import { answerForVersion, framesForVersion, jsonForVersion } from './legacy-frames.js';

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
    const [legacy, ...more] = framesForVersion(edit, 2);
    expect(more).toEqual([]);
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
    expect(framesForVersion(edit, 3)).toEqual([edit]);
  });

  it('rewrites serialised frames only when needed, whatever the key order (jsonb reorders)', () => {
    const { type: _type, ...rest } = edit;
    const reordered = Buffer.from(JSON.stringify({ ...rest, type: 'messageEdited' }));
    expect(jsonForVersion(reordered, 1).map((json) => JSON.parse(json.toString()).type)).toEqual(['message']);
    const same = Buffer.from(JSON.stringify(edit));
    expect(jsonForVersion(same, 3)[0]).toBe(same);
    // a message whose text merely quotes the marker is not a correction
    const quoting = Buffer.from(JSON.stringify({ type: 'message', message: '"type":"messageEdited"' }));
    expect(jsonForVersion(quoting, 1)[0]).toBe(quoting);
  });

  it('checks each frame afresh when frames alternate, and the same frame once per fan-out', () => {
    const plain = Buffer.from(JSON.stringify({ type: 'message', id: 1, message: 'hi' }));
    const edited = Buffer.from(JSON.stringify(edit));
    const types = (json: Buffer) => jsonForVersion(json, 2).map((one) => JSON.parse(one.toString()).type);
    // one fan-out hands every socket the same Buffer: each older socket gets the frame as it is
    for (let socket = 0; socket < 3; socket++) expect(jsonForVersion(plain, 2)[0]).toBe(plain);
    expect(types(edited)).toEqual(['message']);
    expect(types(edited)).toEqual(['message']);
    expect(jsonForVersion(plain, 2)[0]).toBe(plain);
    // equal bytes in another Buffer get the same verdict
    expect(types(Buffer.from(edited))).toEqual(['message']);
    expect(jsonForVersion(Buffer.from(plain), 1)[0]?.equals(plain)).toBe(true);
  });

  it('sends translationFailed only to clients of version 4 and later, as frame and as serialised', () => {
    const failed: ServerFrame = { type: 'translationFailed', originalTimestamp: 1000, targetLanguage: 'ja' };
    for (const version of [1, 2, 3]) expect(framesForVersion(failed, version), `v${version}`).toEqual([]);
    expect(framesForVersion(failed, 4)).toEqual([failed]);
    const json = Buffer.from(JSON.stringify(failed));
    for (const version of [1, 2, 3]) expect(jsonForVersion(json, version), `v${version}`).toEqual([]);
    expect(jsonForVersion(json, 4)[0]).toBe(json);
    // a version 3 client still gets everything else as it is, a chat quoting the marker too
    const quoting = Buffer.from(JSON.stringify({ type: 'message', message: '"type":"translationFailed"' }));
    expect(jsonForVersion(quoting, 3)[0]).toBe(quoting);
    const chunk = Buffer.from(JSON.stringify({ type: 'translationChunk', originalTimestamp: 1000 }));
    expect(jsonForVersion(chunk, 3)[0]).toBe(chunk);
  });

  it('sends a message its failed languages only from version 7, as frame and as serialised', () => {
    const failed: MessageFrame = {
      type: 'message',
      id: 1000,
      username: 'g-1',
      message: 'hello',
      language: 'en',
      timestamp: 1000,
      translations: {},
      isTutorial: false,
      failedTranslations: ['ja'],
    };
    const { failedTranslations: _failed, ...plain } = failed;
    expect(framesForVersion(failed, RETRANSLATE_PROTOCOL_VERSION)).toEqual([failed]);
    expect(answerForVersion(failed, RETRANSLATE_PROTOCOL_VERSION)).toBe(failed);
    const json = Buffer.from(JSON.stringify(failed));
    expect(jsonForVersion(json, RETRANSLATE_PROTOCOL_VERSION)[0]).toBe(json);
    for (const version of [1, 2, 3, 4, 5, RETRANSLATE_PROTOCOL_VERSION - 1]) {
      expect(framesForVersion(failed, version), `v${version}`).toEqual([plain]);
      expect(answerForVersion(failed, version), `v${version}`).toEqual(plain);
      const served = jsonForVersion(json, version).map((one) => JSON.parse(one.toString()));
      expect(served, `v${version}`).toEqual([plain]);
    }
    // a text quoting the key is a text: the frame goes as it is
    const quoting = Buffer.from(JSON.stringify({ ...plain, message: '"failedTranslations":["ja"]' }));
    expect(jsonForVersion(quoting, RETRANSLATE_PROTOCOL_VERSION - 1)[0]).toBe(quoting);
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
      expect(framesForVersion(caption, version)).toEqual([]);
      expect(framesForVersion(clipChunk, version)).toEqual([]);
      expect(jsonForVersion(Buffer.from(JSON.stringify(caption)), version)).toEqual([]);
      expect(jsonForVersion(Buffer.from(JSON.stringify(clipChunk)), version)).toEqual([]);
      const { type: _type, ...rest } = clipChunk;
      expect(jsonForVersion(Buffer.from(JSON.stringify({ ...rest, type: clipChunk.type })), version)).toEqual(
        [],
      );
      const chunkJson = Buffer.from(JSON.stringify(messageChunk));
      expect(jsonForVersion(chunkJson, version)[0]).toBe(chunkJson);
    }
    const captionJson = Buffer.from(JSON.stringify(caption));
    expect(jsonForVersion(captionJson, 3)).toEqual([captionJson]);
    expect(framesForVersion(clipChunk, 3)).toEqual([clipChunk]);
  });

  it('sends a client below 3 a burst of arrivals one person per frame, leaving out its own user', () => {
    const burst: SystemFrame = {
      type: 'system',
      message: 'JOIN',
      timestamp: 5000,
      username: 'g-1',
      displayUsername: 'BraveOtter',
      usernames: ['g-1', 'g-2', 'g-3'],
      displayUsernames: ['BraveOtter', 'CalmFox', 'KindOwl'],
    };
    const expected = [
      { type: 'system', message: 'JOIN', timestamp: 5000, username: 'g-1', displayUsername: 'BraveOtter' },
      { type: 'system', message: 'JOIN', timestamp: 5000, username: 'g-3', displayUsername: 'KindOwl' },
    ];
    expect(framesForVersion(burst, 2, 'g-2')).toEqual(expected);
    const json = jsonForVersion(Buffer.from(JSON.stringify(burst)), 1, 'g-2');
    expect(json.map((frame) => JSON.parse(frame.toString()))).toEqual(expected);
    expect(framesForVersion(burst, 3, 'g-2')).toEqual([burst]);
    const single = { type: 'system', message: 'LEAVE', timestamp: 6000, username: 'g-4' } as const;
    expect(framesForVersion(single, 2, 'g-2')).toEqual([single]);
  });

  it('splits a burst once for all older sockets, each still without its own user', () => {
    const burst: SystemFrame = {
      type: 'system',
      message: 'LEAVE',
      timestamp: 7000,
      username: 'g-1',
      displayUsername: 'BraveOtter',
      usernames: ['g-1', 'g-2'],
      displayUsernames: ['BraveOtter', 'CalmFox'],
    };
    const json = Buffer.from(JSON.stringify(burst));
    const forG1 = jsonForVersion(json, 2, 'g-1');
    const forG2 = jsonForVersion(json, 1, 'g-2');
    const forOther = jsonForVersion(json, 2, 'g-9');
    const names = (frames: Buffer[]) => frames.map((frame) => JSON.parse(frame.toString()).username);
    expect(names(forG1)).toEqual(['g-2']);
    expect(names(forG2)).toEqual(['g-1']);
    expect(names(forOther)).toEqual(['g-1', 'g-2']);
    // the very same Buffers: framed once (write-batcher.ts) whoever they go to
    expect(forOther[1]).toBe(forG1[0]);
    expect(forOther[0]).toBe(forG2[0]);
    expect(jsonForVersion(json, 3, 'g-1')).toEqual([json]);
  });
});
