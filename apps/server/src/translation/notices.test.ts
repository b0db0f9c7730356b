import type { ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import type { AiProvider, ProviderStatus } from '../ai/index.js';
import { watchLoading } from './notices.js';
import { DEFAULT_TRANSLATION_OPTIONS } from './options.js';

/*
 * Engine loading progress as the rooms waiting for it see it: throttled, then 'ready' once, each notice with
 * its kind and params so that clients can word it in their own interface language.
 */
describe('engine loading notices', () => {
  it('tells the rooms with work how loading goes, then that the engine is ready, by kind', () => {
    let report: ((status: ProviderStatus) => void) | undefined;
    const provider = {
      onStatus: (listener: (status: ProviderStatus) => void) => {
        report = listener;
        return () => (report = undefined);
      },
    } as Pick<AiProvider, 'onStatus'> as AiProvider;
    let now = 0;
    const sent: Array<{ roomId: string; frame: ServerFrame }> = [];
    const stop = watchLoading({
      provider,
      clock: { now: () => now },
      options: { ...DEFAULT_TRANSLATION_OPTIONS, loadingNoticeIntervalMs: 5_000 },
      send: async (roomId, frame) => void sent.push({ roomId, frame }),
      roomIds: () => ['R1', 'R2'],
    });
    const model = 'Xenova/opus-mt-en-jap';
    report?.({ kind: 'loading', task: 'translation', model, percent: 12.7 });
    now = 1_000;
    report?.({ kind: 'loading', task: 'translation', model, percent: 40 }); // within the interval: not sent
    now = 6_000;
    report?.({ kind: 'loading', task: 'translation', model, percent: 80.2 });
    report?.({ kind: 'ready', task: 'translation', model });
    report?.({ kind: 'ready', task: 'translation', model }); // said once

    expect(sent.filter((each) => each.roomId === 'R1').map((each) => each.frame)).toEqual([
      {
        type: 'error',
        code: 'notice',
        message: 'translation engine loading 12%',
        notice: { kind: 'engine_loading', params: { task: 'translation', percent: 12 } },
      },
      {
        type: 'error',
        code: 'notice',
        message: 'translation engine loading 80%',
        notice: { kind: 'engine_loading', params: { task: 'translation', percent: 80 } },
      },
      {
        type: 'error',
        code: 'notice',
        message: 'translation engine ready',
        notice: { kind: 'engine_ready', params: { task: 'translation' } },
      },
    ]);
    expect(sent.filter((each) => each.roomId === 'R2')).toHaveLength(3);
    stop?.();
    expect(report).toBeUndefined();
  });
});
