import { creditCost } from '@xtalk/protocol';
import type { ErrorFrame, MessageFrame } from '@xtalk/protocol';
import { PROTOCOL_VERSION } from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speakerAndListener, roomBarrier, startServer, type TestServer } from '../testing/harness.js';
import { InsufficientCreditsError, type Usage } from '../translation/index.js';
import { createStreamPayment } from './stream-payment.js';
import { fixture, pagesOf } from './testing/clips.js';

/*
 * A streamed clip's transcription is paid for as it is heard, a price block at a time, and in total costs
 * what a whole clip of its length costs; a speaker who cannot pay is refused within one block.
 */

describe('stream payment', () => {
  it('pays a block as the audio reaches it, and at the end leaves only the rest to the final charge', async () => {
    const paid: number[] = [];
    const refunded: number[] = [];
    const payment = createStreamPayment(async (seconds) => {
      const n = paid.push(seconds);
      return { refund: async () => void refunded.push(n) };
    }, 10);
    expect(await payment.cover(0.4)).toBe(true);
    expect(await payment.cover(9.9)).toBe(true);
    expect(paid).toEqual([10]);
    expect(await payment.cover(10.1)).toBe(true);
    expect(paid).toEqual([10, 10]);
    const rest = await payment.settle(12.3);
    expect(refunded).toEqual([2]); // the last block, only partly heard
    expect(rest).toBeCloseTo(2.3);
    // the blocks kept plus the final charge cost what the whole clip costs
    expect(creditCost('transcription', 10) + creditCost('transcription', rest)).toBe(
      creditCost('transcription', 12.3),
    );
  });

  it('is refused once a block cannot be paid, and says why', async () => {
    let calls = 0;
    const payment = createStreamPayment(async () => {
      calls += 1;
      if (calls > 1) throw new InsufficientCreditsError('no credits', true);
    }, 10);
    expect(await payment.cover(3)).toBe(true);
    expect(await payment.cover(25)).toBe(false);
    expect(calls).toBe(2); // the third block is never asked for
    expect(payment.refusal).toBeInstanceOf(InsufficientCreditsError);
  });
});

describe('a streamed clip in a room, paid as it is heard', () => {
  const charges: Usage[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      { AI_PROVIDER: 'fake', FAKE_AI_DELTA_MS: '20' },
      {
        meter: {
          async charge(usage) {
            // one block of transcription, then the speaker's credits are gone
            if (usage.task === 'transcription' && charges.some((c) => c.task === 'transcription'))
              throw new InsufficientCreditsError('out of credits', true);
            charges.push(usage);
          },
        },
      },
    );
  });
  afterAll(() => server.close());

  it('a speaker who cannot pay for the next block is refused while speaking; nothing is posted', async () => {
    const { alice, roomId, speaker, listener } = await speakerAndListener(
      server,
      {},
      { protocolVersion: PROTOCOL_VERSION },
    );
    const refused = speaker.nextNew<ErrorFrame>((frame) => frame.type === 'error');
    speaker.send({ type: 'voiceStart', clipId: 'long-1', language: 'en', room: roomId });
    // 12.5 s of speech: the second block (of 2 s) is asked for when the audio passes 2 s
    const pages = pagesOf(fixture('hello-3x-en.opus'));
    for (let i = 0; i < pages.length; i += 4) speaker.ws.send(Buffer.concat(pages.slice(i, i + 4)));
    expect(await refused).toMatchObject({
      code: 'transcription_failed',
      clipId: 'long-1',
      message: expect.stringMatching(/allowance for guests/),
    });
    speaker.send({ type: 'voiceEnd', clipId: 'long-1' });
    const [marker] = await roomBarrier(speaker, roomId, [listener]);
    expect(listener.framesBefore(marker!).filter((f): f is MessageFrame => f.type === 'message')).toEqual([]);
    expect(charges.filter((c) => c.task === 'transcription')).toEqual([
      expect.objectContaining({ username: alice.user.username, audioSeconds: 2, roomId }),
    ]);
    speaker.close();
    listener.close();
  });
});
