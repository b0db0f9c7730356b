import { describe, expect, it } from 'vitest';
import { PCM_SAMPLE_RATE } from '../audio/index.js';
import { fixture, pagesOf } from '../voice/testing/clips.js';
import type { LocalModelLoader } from './local-models.js';
import { LocalProvider } from './local-provider.js';
import { recordingLogger } from './testing/logger.js';
import type { TranscriptUpdate } from './transcription-stream.js';
import { WindowAgreement } from './window-agreement.js';

/*
 * Local Whisper on a sliding window, with a fake model in place of the transformers.js pipeline call (the
 * real boundary). The clip is real Ogg/Opus, 42 s of tones, a new pitch every second (300 Hz + 40 Hz per
 * second, fixtures/README.md), so the fake "hears" where in the clip its window starts from the audio it
 * is given, and says sentence j ("Part j goes here.") over seconds 3j..3j+3 with segment timestamps, as
 * Whisper with return_timestamps does. Like Whisper at the edge of what it heard, it mishears the ending
 * of a sentence that closes in the last half second it heard ("hear."), which the next pass (a second of audio later) corrects.
 */

const SENTENCES = 14; // 42 s of 3 s sentences

/** The second of the clip `samples` begin at, from the pitch of their first half second. */
function secondOf(samples: Float32Array): number {
  const block = samples.subarray(1_600, 9_600);
  let crossings = 0;
  for (let i = 1; i < block.length; i += 1) if (block[i - 1]! < 0 !== block[i]! < 0) crossings += 1;
  const hertz = crossings / 2 / (block.length / PCM_SAMPLE_RATE);
  return Math.round((hertz - 300) / 40);
}

function fakeWhisper(heard: number[]): LocalModelLoader {
  return async () => ({
    run: async (input, options) => {
      expect(options).toMatchObject({ task: 'transcribe', return_timestamps: true, language: 'en' });
      const samples = input as Float32Array;
      heard.push(samples.length);
      const from = secondOf(samples);
      const to = from + samples.length / PCM_SAMPLE_RATE;
      const chunks: Array<{ text: string; timestamp: [number, number | null] }> = [];
      for (let j = Math.ceil(from / 3); j < SENTENCES && 3 * j < to - 0.3; j += 1) {
        const end = 3 * j + 3;
        if (end > to + 0.05) {
          chunks.push({ text: ` Part ${j}`, timestamp: [3 * j - from, null] });
          break;
        }
        const edge = end > to - 0.5 && j < SENTENCES - 1;
        chunks.push({
          text: ` Part ${j} goes ${edge ? 'hear' : 'here'}.`,
          timestamp: [3 * j - from, end - from],
        });
      }
      return { text: chunks.map((c) => c.text).join(''), chunks };
    },
  });
}

const expected = Array.from({ length: SENTENCES }, (_, j) => `Part ${j} goes here.`).join(' ');

describe('local streaming transcription on a sliding window', () => {
  it('hears at most the window in each pass, commits what two passes agree on, and ends complete', async () => {
    const heard: number[] = [];
    const provider = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader: fakeWhisper(heard),
      streamIntervalMs: 0,
      streamWindowMs: 8_000,
    });
    expect(provider.streamingTranscription()).toBe('window');
    const updates: TranscriptUpdate[] = [];
    const stream = provider.startTranscription({ languageHint: 'en', onUpdate: (u) => updates.push(u) });
    for (const page of pagesOf(fixture('tones-42s.opus'))) {
      stream.push(page);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const final = await stream.finish();
    expect(final).toEqual({ text: expected, language: 'en' });
    // bounded work: no pass heard more than the window, however long the clip grew (42 s)
    expect(heard.length).toBeGreaterThan(10);
    expect(Math.max(...heard)).toBeLessThanOrEqual(8 * PCM_SAMPLE_RATE);
    // committed text only grows, is whole sentences, never a misheard ending, and begins the final text
    let committed = '';
    for (const update of updates) {
      const head = update.text.slice(0, update.committed);
      expect(head.startsWith(committed)).toBe(true);
      expect(head).not.toContain('hear.');
      expect(final.text.startsWith(head)).toBe(true);
      committed = head;
    }
    expect(committed.split('. ').length).toBeGreaterThanOrEqual(10); // most of it committed while it ran
    await provider.close();
  });

  it('a full window without a sentence end is cut anyway: frozen text stays shown and ends the transcript', () => {
    const agreement = new WindowAgreement();
    const seg = (text: string, start: number, end: number | null) => ({ text, start, end });
    const first = agreement.accept([seg(' and so', 0, 4), seg(' we went', 4, 8)], 8, true);
    expect(first.advance).toBe(4); // all but the last segment frozen
    expect(first.update).toEqual({ text: 'and so we went', committed: 0 });
    const second = agreement.accept([seg(' we went on.', 0, 3), seg(' Then', 3, null)], 5, false);
    expect(second.advance).toBe(0); // "we went on." not yet agreed
    const third = agreement.accept([seg(' we went on.', 0, 3), seg(' Then we', 3, null)], 6, false);
    expect(third).toEqual({ advance: 3, update: { text: 'and so we went on. Then we', committed: 18 } });
    expect(agreement.final([seg(' Then we stopped.', 0, 2)])).toBe('and so we went on. Then we stopped.');
  });
});
