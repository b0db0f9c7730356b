import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '@xtalk/protocol';
import { createMemoryBus } from '../bus/index.js';
import { createRoomHub, type HubMember } from './room-hub.js';

/*
 * A chunk of a text that a correction replaced, arriving after the correction was delivered, reaches no
 * one; chunks of the corrected text and of other messages pass.
 */

function listener(roomId: string) {
  const frames: ServerFrame[] = [];
  const view: HubMember = {
    roomId,
    username: () => 'ann',
    language: () => 'ja',
    deliverText: (json) => frames.push(JSON.parse(json.toString()) as ServerFrame),
    deliverAudio: () => undefined,
    deliverSpeech: () => undefined,
  };
  return { view, frames };
}

const chunk = (id: number, chunk: string, revision?: number): ServerFrame => ({
  type: 'translationChunk',
  originalTimestamp: id,
  targetLanguage: 'ja',
  chunk,
  ...(revision !== undefined ? { revision } : {}),
});

const edited = (id: number, editedAt: number, offset: number): ServerFrame => ({
  type: 'messageEdited',
  id,
  message: `text at ${editedAt}`,
  editedAt,
  offset,
});

describe('chunks of a corrected text', () => {
  it('are dropped once the correction was delivered, by the revision they carry', async () => {
    const hub = createRoomHub(createMemoryBus());
    const ann = listener('R');
    await hub.attach(ann.view);

    await hub.broadcast('R', chunk(5, 'old-before-edit'));
    await hub.broadcast('R', edited(5, 1000, 0));
    await hub.broadcast('R', chunk(5, 'old-after-edit'));
    await hub.broadcast('R', chunk(5, 'first-edit', 1000));
    await hub.broadcast('R', chunk(6, 'other-message'));
    await hub.broadcast('R', edited(5, 2000, 1));
    await hub.broadcast('R', chunk(5, 'first-edit-late', 1000));
    await hub.broadcast('R', chunk(5, 'second-edit', 2000));
    await hub.broadcast('R', chunk(6, 'other-message-again'));

    const chunks = ann.frames.flatMap((f) => (f.type === 'translationChunk' ? [f.chunk] : []));
    expect(chunks).toEqual([
      'old-before-edit',
      'first-edit',
      'other-message',
      'second-edit',
      'other-message-again',
    ]);
    expect(ann.frames.filter((f) => f.type === 'messageEdited')).toHaveLength(2);
    await hub.detach(ann.view);
  });

  it('a message whose text says "type":"messageEdited" is no correction', async () => {
    const hub = createRoomHub(createMemoryBus());
    const ann = listener('R');
    await hub.attach(ann.view);
    const text = '{"type":"messageEdited","id":9,"editedAt":5000}';
    await hub.broadcast('R', {
      type: 'message',
      id: 9,
      message: text,
      username: 'bob',
      displayUsername: 'Bob',
      language: 'en',
      timestamp: 1,
      translations: {},
      offset: 0,
    } as ServerFrame);
    await hub.broadcast('R', chunk(9, 'still-current'));
    expect(ann.frames.map((f) => f.type)).toEqual(['message', 'translationChunk']);
    await hub.detach(ann.view);
  });

  it('drop a complete translation that could not be logged once a later correction was delivered', async () => {
    const hub = createRoomHub(createMemoryBus());
    const ann = listener('R');
    await hub.attach(ann.view);
    const complete = (fullText: string, revision?: number): ServerFrame => ({
      type: 'translationComplete',
      originalTimestamp: 5,
      targetLanguage: 'ja',
      fullText,
      ...(revision !== undefined ? { revision } : {}),
    });
    await hub.broadcast('R', complete('first-before-edit', 0));
    await hub.broadcast('R', edited(5, 1000, 0));
    await hub.broadcast('R', complete('first-after-edit', 0));
    await hub.broadcast('R', complete('from-a-node-that-names-no-revision'));
    await hub.broadcast('R', complete('corrected', 1000));
    const texts = ann.frames.flatMap((f) => (f.type === 'translationComplete' ? [f.fullText] : []));
    expect(texts).toEqual(['first-before-edit', 'from-a-node-that-names-no-revision', 'corrected']);
    await hub.detach(ann.view);
  });
});
