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
  let running: Promise<void> | undefined;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let finished: Promise<Transcription> | undefined;
  let seen = 0;

  const clip = () => Buffer.concat(pieces);

  function schedule(): void {
    if (running || timer || finished || controller.signal.aborted) return;
    const wait = lastStart + options.intervalMs - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        schedule();
      }, wait);
      return;
    }
    if (pieces.length < 2 || seen === pieces.length) return; // nothing new since the last call
    seen = pieces.length;
    lastStart = performance.now();
    running = options
      .transcribe(clip(), controller.signal)
      .then((result) => {
        if (!finished && !controller.signal.aborted) options.onUpdate(committer.next(result.text));
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) options.onError?.(error);
      })
      .finally(() => {
        running = undefined;
        schedule();
      });
  }

  return {
    mode: options.mode,
    push(pages) {
      pieces.push(pages);
      schedule();
    },
    finish(signal) {
      finished ??= (async () => {
        clearTimeout(timer);
        await running;
        const result = await options.transcribe(clip(), signal ?? controller.signal);
        return { ...result, text: committer.final(result.text) };
      })();
      return finished;
    },
    abort() {
      clearTimeout(timer);
      controller.abort();
    },
  };
}
