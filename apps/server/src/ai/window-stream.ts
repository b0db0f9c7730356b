import { createOpusStreamDecoder, PCM_SAMPLE_RATE } from '../audio/index.js';
import type { Transcription } from './provider.js';
import { languageFromScript } from './provider.js';
import { createPassSchedule } from './pass-schedule.js';
import type { TranscriptionStream, TranscriptionStreamOptions } from './transcription-stream.js';
import { WindowAgreement, type WindowSegment } from './window-agreement.js';

/*
 * Streaming on a sliding window (local Whisper): the clip's pages are decoded to 16 kHz PCM as
 * they arrive, and each pass transcribes only the window, the audio after the last committed point, at
 * most `maxWindowMs` of it, so a pass costs the same at second 5 and at second 55. What two passes agree
 * on is committed and leaves the window (window-agreement.ts). Passes run one at a time, at most one
 * every `intervalMs`, and only when `minNewAudioMs` of audio came since the last one.
 * No prompt carries the committed text into the next pass: transformers.js (4.3) does not implement
 * Whisper's prompt_ids; a window starts at a segment end, where Whisper itself would cut.
 */

export interface WindowPass {
  segments: WindowSegment[];
}

export interface WindowStreamOptions extends TranscriptionStreamOptions {
  /** Transcribe PCM (16 kHz mono) into timed segments. */
  transcribe(samples: Float32Array, signal: AbortSignal): Promise<WindowPass>;
  /** Least time between two pass starts (ms). */
  intervalMs: number;
  /** The most audio one pass hears (ms). */
  maxWindowMs: number;
  /** Least new audio before another pass (ms). Default 1000. */
  minNewAudioMs?: number;
  onError?(error: unknown): void;
}

const EMPTY = new Float32Array(0);

function concat(a: Float32Array, b: Float32Array): Float32Array {
  if (a.length === 0) return b;
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function createWindowStream(options: WindowStreamOptions): TranscriptionStream {
  const decoder = createOpusStreamDecoder(PCM_SAMPLE_RATE);
  const agreement = new WindowAgreement();
  const controller = new AbortController();
  const maxSamples = Math.round((options.maxWindowMs * PCM_SAMPLE_RATE) / 1000);
  const minNew = Math.round(((options.minNewAudioMs ?? 1_000) * PCM_SAMPLE_RATE) / 1000);
  /** The window: decoded audio from the last committed (or frozen) point on. */
  let window: Float32Array = EMPTY;
  let fresh = 0;
  let decoding: Promise<void> = Promise.resolve();
  let finished: Promise<Transcription> | undefined;

  /** One pass over the window's first `maxSamples`; moves the window by what it committed or froze. */
  async function pass(signal: AbortSignal): Promise<WindowSegment[]> {
    const heard = window.slice(0, maxSamples);
    const result = await options.transcribe(heard, signal);
    const step = agreement.accept(
      result.segments,
      heard.length / PCM_SAMPLE_RATE,
      heard.length >= maxSamples,
    );
    window = window.subarray(Math.round(step.advance * PCM_SAMPLE_RATE));
    if (!finished && !signal.aborted) options.onUpdate(step.update);
    return result.segments;
  }

  const schedule = createPassSchedule({
    intervalMs: options.intervalMs,
    signal: controller.signal,
    take() {
      if (fresh < minNew) return false;
      fresh = 0;
      return true;
    },
    run: pass,
    onError: (error) => options.onError?.(error),
  });

  return {
    mode: 'window',
    push(pages) {
      decoding = decoding.then(async () => {
        if (controller.signal.aborted) return;
        const samples = await decoder.push(pages).catch(() => EMPTY);
        window = concat(window, samples);
        fresh += samples.length;
        schedule.poke();
      });
    },
    finish(signal) {
      finished ??= (async () => {
        schedule.stop();
        await decoding;
        await schedule.running;
        decoder.free();
        const use = signal ?? controller.signal;
        // what is left, in passes of at most the window's cap; the last one's hypothesis ends the text
        while (window.length > maxSamples) await pass(use);
        const last = await options.transcribe(window.slice(), use);
        const text = agreement.final(last.segments);
        return { text, language: languageFromScript(text) ?? options.languageHint?.split('-')[0] ?? 'en' };
      })();
      return finished;
    },
    abort() {
      schedule.stop();
      controller.abort();
      void decoding.then(() => decoder.free());
    },
  };
}

/** What the transformers.js speech-recognition pipeline returns with `return_timestamps: true`. */
interface WhisperOutput {
  text?: string;
  chunks?: Array<{ text?: string; timestamp?: [number | null, number | null] }>;
}

/** A Whisper pipeline's output as timed segments (one untimed segment when it gave no chunks). */
export function whisperSegments(output: unknown): WindowPass {
  const result = (Array.isArray(output) ? output[0] : output) as WhisperOutput | undefined;
  const chunks = result?.chunks ?? [];
  if (chunks.length === 0) {
    const text = result?.text ?? '';
    return { segments: text.trim() ? [{ text, start: 0, end: null }] : [] };
  }
  return {
    segments: chunks.map((chunk) => ({
      text: chunk.text ?? '',
      start: chunk.timestamp?.[0] ?? 0,
      end: chunk.timestamp?.[1] ?? null,
    })),
  };
}
