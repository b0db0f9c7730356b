import { createPassSchedule } from './pass-schedule.js';
import type { Transcription } from './provider.js';
import {
  RescanCommitter,
  type StreamingMode,
  type TranscriptionStream,
  type TranscriptionStreamOptions,
} from './transcription-stream.js';

/*
 * Streaming for engines that only take whole clips (`audio/transcriptions` without a Realtime API, local
 * Whisper): the growing clip is transcribed again on a bounded schedule, at most one call at a time and at
 * most one every `intervalMs`, so a 60 s clip costs at most 60 s / interval calls, not one per piece.
 * Whole Ogg pages from the first one on are always a valid Ogg/Opus file, so each call gets a real clip.
 */

export interface RescanOptions extends TranscriptionStreamOptions {
  mode: Extract<StreamingMode, 'rescan'>;
  transcribe(audio: Uint8Array, signal: AbortSignal): Promise<Transcription>;
  /** Least time between two starts (ms). */
  intervalMs: number;
  /** What a failed interim call is reported to (the final call's failure goes to `finish`). */
  onError?(error: unknown): void;
}

export function createRescanStream(options: RescanOptions): TranscriptionStream {
  const pieces: Uint8Array[] = [];
  const committer = new RescanCommitter();
  const controller = new AbortController();
  let finished: Promise<Transcription> | undefined;
  let seen = 0;

  const clip = () => Buffer.concat(pieces);

  const schedule = createPassSchedule({
    intervalMs: options.intervalMs,
    signal: controller.signal,
    take() {
      if (pieces.length < 2 || seen === pieces.length) return false; // nothing new since the last call
      seen = pieces.length;
      return true;
    },
    async run(signal) {
      const result = await options.transcribe(clip(), signal);
      if (!finished && !signal.aborted) options.onUpdate(committer.next(result.text));
    },
    onError: (error) => options.onError?.(error),
  });

  return {
    mode: options.mode,
    push(pages) {
      pieces.push(pages);
      schedule.poke();
    },
    finish(signal) {
      finished ??= (async () => {
        schedule.stop();
        await schedule.running;
        const result = await options.transcribe(clip(), signal ?? controller.signal);
        return { ...result, text: committer.final(result.text) };
      })();
      return finished;
    },
    abort() {
      schedule.stop();
      controller.abort();
    },
  };
}
