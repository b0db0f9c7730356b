import { describe, expect, it, vi } from 'vitest';
import { FakeProvider } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { InsufficientCreditsError } from './errors.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore, messageFrame } from './testing/index.js';
import { createTranslationService } from './service.js';

/* Metering in the pipeline: refunds for failed work, and what happens when the author cannot pay. */

/** bob's message, named as the room sees him in the notices. */
const bobs = (id: number, text: string) =>
  messageFrame(id, text, 'en', { username: 'bob', displayUsername: 'QuietFox' });

function setup() {
  const provider = new FakeProvider();
  const output = new MemoryRoomOutput();
  const store = new MemoryTranslationStore();
  const meter = new MemoryMeter();
  const service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider,
    output,
    users: output,
    store,
    meter,
    logger: recordingLogger().logger,
    options: { retryBaseDelayMs: 1, retryMaxDelayMs: 2, attempts: 2 },
  });
  const notices = () => output.frames.filter((f) => f.frame.type === 'error');
  return { provider, output, store, meter, service, notices };
}

describe('translation service and credits', () => {
  it('refunds every charge whose work failed, and only those', async () => {
    const { store, meter, service } = setup();
    service.onMessage('R', bobs(1, 'this one will !fail'), { userId: 'u' });
    service.onMessage('R', bobs(2, 'this one works'), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    await service.close();
    // the fake engine fails the translation of a `!fail` text (its hint call succeeds, with no hint)
    const failed = meter.charges.filter((c) => c.messageId === 1 && c.task === 'translation');
    expect(failed).toHaveLength(1);
    expect(meter.refunds).toEqual(failed);
    expect(meter.charges.length).toBeGreaterThan(meter.refunds.length);
  });

  it('tells the author once and the room one line, calls no engine, and resumes when the balance grows', async () => {
    const { provider, output, store, meter, service, notices } = setup();
    meter.refuseWith = () => new InsufficientCreditsError('You have run out of credits.');
    for (let id = 1; id <= 3; id += 1) service.onMessage('R', bobs(id, `message ${id}`), { userId: 'broke' });
    service.onMessage('R2', bobs(4, 'elsewhere'), { userId: 'broke' });
    await vi.waitFor(() => expect(notices().filter((n) => n.roomId === 'R2')).toHaveLength(1));
    await vi.waitFor(() => expect(output.userFrames).toHaveLength(1));
    expect(output.userFrames[0]).toEqual({
      userId: 'broke',
      frame: {
        type: 'error',
        code: 'notice',
        message: 'You have run out of credits.',
        // the kind and reason let a client word it in its own interface language
        notice: { kind: 'credits_paused', params: { reason: 'no_credits' } },
      },
    });
    const roomLines = notices().filter((n) => n.roomId === 'R');
    expect(roomLines).toHaveLength(1);
    expect(roomLines[0]).toMatchObject({
      exceptUsername: 'bob',
      frame: { notice: { kind: 'translation_paused', params: { name: 'QuietFox', reason: 'no_credits' } } },
    });
    expect(JSON.stringify(roomLines[0]?.frame)).toContain('QuietFox has run out of credits');
    expect(provider.calls).toEqual([]);
    expect(meter.charges).toEqual([]);

    // the balance grows: the refused messages are translated after all
    meter.refuseWith = undefined;
    service.resume('broke');
    await vi.waitFor(() => expect(store.translations).toHaveLength(4));
    expect(store.translations.map((t) => t.messageId).sort()).toEqual([1, 2, 3, 4]);
    // a resumed author who runs out again is told again
    meter.refuseWith = () => new InsufficientCreditsError('You have run out of credits.');
    service.onMessage('R', bobs(5, 'again'), { userId: 'broke' });
    await vi.waitFor(() => expect(output.userFrames).toHaveLength(2));
    await service.close();
  });
});
