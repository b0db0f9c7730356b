import { describe, expect, it } from 'vitest';
import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import { LocalProvider } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { MemoryMeter } from '../translation/testing/index.js';
import { createSummaries } from './summaries.js';

/* The local engine writes no summaries: the asker is told so, nothing is charged and no model is loaded. */

describe('summaries with the local engine', () => {
  it('answers engine_unsupported', async () => {
    const meter = new MemoryMeter();
    let loads = 0;
    const provider = new LocalProvider({
      modelsDir: '/nonexistent',
      logger: recordingLogger().logger,
      loader: async () => {
        loads += 1;
        throw new Error('no weights here');
      },
    });
    let reads = 0;
    const summaries = createSummaries({
      provider,
      meter,
      messages: {
        messagesAfter: async () => {
          reads += 1;
          return [] as MessageFrame[];
        },
      },
      languages: ['en', 'ja'],
      clock: { now: () => Date.now() },
      logger: recordingLogger().logger,
    });
    const frames: ServerFrame[] = [];
    await summaries.summarize(
      { roomId: 'ROOM1', userId: 'u1', username: () => 'bob', sendFrame: (f) => void frames.push(f) },
      { type: 'summarize', room: 'ROOM1', language: 'ja' },
    );
    expect(frames).toMatchObject([{ type: 'error', code: 'engine_unsupported' }]);
    expect(meter.charges).toEqual([]);
    expect([loads, reads]).toEqual([0, 0]);
    summaries.close();
  });
});
