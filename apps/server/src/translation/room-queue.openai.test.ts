import { describe, expect, it, vi } from 'vitest';
import { defaultTranslation, isNoteRequest } from '../ai/testing/fake-openai-server.js';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * The queue in front of the engine: the caller's path never waits, a slow room does not hold up the
 * others, and close() lets the work in flight finish.
 */

const t = openAiServiceTest();

describe('the translation service with the openai provider: the room queue', () => {
  it('onMessage returns at once and a slow room does not hold up other rooms', async () => {
    t.server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      const slow = JSON.stringify(body.messages).includes('slow room');
      return { kind: 'stream', pieces: defaultTranslation(body.messages), delayMs: slow ? 400 : 0 };
    };
    const svc = t.start({ speech: false, notes: false, maxConcurrent: 3, maxConcurrentPerRoom: 2 });
    const t0 = performance.now();
    for (let i = 0; i < 6; i += 1) t.post(svc, 'SLOW', t.message(`slow room ${i}`));
    expect(performance.now() - t0).toBeLessThan(50); // nothing awaited on the caller's path
    t.post(svc, 'FAST', t.message('fast room'));
    await vi.waitFor(() =>
      expect(t.store.translations.some((stored) => stored.roomId === 'FAST')).toBe(true),
    );
    // the fast room finished while the slow room still had most of its work pending
    expect(t.store.translations.filter((stored) => stored.roomId === 'SLOW').length).toBeLessThan(6);
  });

  it('close() waits for work in flight', async () => {
    t.server.onChat = (body) => ({ kind: 'stream', pieces: defaultTranslation(body.messages), delayMs: 50 });
    const svc = t.start({ speech: false, notes: false });
    t.post(svc, 'ROOM1', t.message('finish me please'));
    await vi.waitFor(() => expect(t.translationRequests()).toHaveLength(1));
    await svc.close();
    expect(t.store.translations).toHaveLength(1);
    t.service = undefined;
  });
});
