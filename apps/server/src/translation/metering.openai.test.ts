import { describe, expect, it, vi } from 'vitest';
import { InsufficientCreditsError } from './errors.js';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * Every engine call is charged to its author before it is made; a refused charge makes no call and tells
 * the room once.
 */

const t = openAiServiceTest();

describe('the translation service with the openai provider: metering the engine calls', () => {
  it('meters every provider call before it happens, keyed by the author, with the right numbers', async () => {
    const svc = t.start();
    const m = t.message('Thanks a lot');
    t.post(svc, 'ROOM1', m, 'uid-42');
    await vi.waitFor(() => expect(t.output.audio).toHaveLength(1));
    await vi.waitFor(() => expect(t.meter.charges).toHaveLength(3));
    const base = { userId: 'uid-42', username: 'alice', roomId: 'ROOM1', messageId: m.id, language: 'ja' };
    expect(t.meter.charges).toEqual(
      expect.arrayContaining([
        { ...base, task: 'translation', characters: 'Thanks a lot'.length },
        { ...base, task: 'note', characters: 'Thanks a lot'.length },
        { ...base, task: 'speech', characters: 'ja: Thanks a lot'.length },
      ]),
    );
    expect(t.meter.refunds).toEqual([]);
    // one charge per provider call
    expect(t.server.requests).toHaveLength(3);
  });

  it('a refused charge skips the call and tells the room once', async () => {
    t.meter.refuseWith = (usage) => (usage.userId === 'broke' ? new InsufficientCreditsError() : undefined);
    const svc = t.start();
    t.post(
      svc,
      'ROOM1',
      t.message('Can anyone hear me?', { username: 'bob', displayUsername: 'QuietFox' }),
      'broke',
    );
    t.post(svc, 'ROOM1', t.message('Hello?', { username: 'bob', displayUsername: 'QuietFox' }), 'broke');
    await vi.waitFor(() => expect(t.notices()).toHaveLength(1));
    await svc.close();
    expect(t.server.requests).toEqual([]);
    expect(t.store.translations).toEqual([]);
    expect(t.notices()).toHaveLength(1);
    expect(t.notices()[0]?.message).toContain('QuietFox has run out of credits');
  });
});
