import { readOggPage } from '../audio/index.js';
import type { Transcription } from './provider.js';
import {
  committedOfGrowingText,
  type TranscriptionStream,
  type TranscriptionStreamOptions,
} from './transcription-stream.js';

/*
 * The fake provider's streaming transcription: scripted deltas. The script is the transcript the clip
 * carries (`XTALK-TRANSCRIPT:<lang>:<text>` in its Opus comment header, as for whole clips); its words come
 * out as the audio that holds them arrives (one word per `secondsPerWord` of audio), each update
 * `deltaLatencyMs` after the pages that made it due, the way a real engine lags the speaker.
 */

export interface FakeStreamOptions extends TranscriptionStreamOptions {
  /** The transcript when the clip carries none. */
  script: (firstPages: Uint8Array) => Transcription;
  deltaLatencyMs: number;
  secondsPerWord: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The largest granule (48 kHz samples) among whole pages of `bytes`; 0 when none. */
function lastGranule(bytes: Uint8Array): bigint {
  let granule = 0n;
  for (let offset = 0, index = 0; offset < bytes.length; index += 1) {
    const page = readOggPage(bytes, offset, index);
    if (typeof page === 'string') break;
    if (page.granule > granule) granule = page.granule;
    offset = page.end;
  }
  return granule;
}

export function createFakeStream(options: FakeStreamOptions): TranscriptionStream {
  let head: Uint8Array = new Uint8Array(0);
  let script: Transcription | undefined;
  let words: string[] = [];
  let shown = 0;
  let stopped = false;
  let finished: Promise<Transcription> | undefined;
  /** Updates leave in order: each waits for the one before. */
  let chain = Promise.resolve();

  const emit = (count: number) => {
    chain = chain.then(async () => {
      await sleep(options.deltaLatencyMs);
      if (stopped || count <= shown) return;
      shown = count;
      const text = words.slice(0, count).join(' ');
      options.onUpdate({ text, committed: committedOfGrowingText(text) });
    });
  };

  return {
    mode: 'scripted',
    push(pages) {
      if (stopped || finished) return;
      if (!script) {
        // the script is in the comment header, in the first piece or soon after it
        head = Buffer.concat([head, pages]);
        if (head.length < 4096 && lastGranule(head) === 0n) return;
        script = options.script(head);
        words = script.text.split(/\s+/u).filter(Boolean);
      }
      const seconds = Number(lastGranule(pages)) / 48_000;
      const due = Math.min(words.length, Math.floor(seconds / options.secondsPerWord));
      if (due > shown) emit(due);
    },
    finish() {
      finished ??= (async () => {
        script ??= options.script(head);
        await chain;
        await sleep(options.deltaLatencyMs);
        return script;
      })();
      return finished;
    },
    abort() {
      stopped = true;
    },
  };
}
