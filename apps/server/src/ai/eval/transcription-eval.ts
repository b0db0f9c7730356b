import { decodeOggOpus, PCM_SAMPLE_RATE } from '../../audio/index.js';
import type { AiProvider } from '../provider.js';
import { AiUnavailableError } from '../provider.js';
import { EngineUnreachableError, percentile } from './translation-eval.js';

/*
 * The real time factor of an engine's transcription on the voice clips the tests use (their audio is real
 * speech, made with espeak-ng), and its character error rate against each clip's known text. The time
 * is the whole call (decoding included), as a voice message spends it; RTF = time / audio length.
 */

export interface Clip {
  name: string;
  /** Ogg/Opus, as the browser records. */
  audio: Uint8Array;
  language: string;
  /** What is said, where known. */
  transcript?: string;
}

export interface ClipReport {
  name: string;
  language: string;
  seconds: number;
  ms: number;
  rtf: number;
  text: string;
  cer: number | null;
}

export interface TranscriptionReport {
  engine: string;
  clips: ClipReport[];
  /** All clips' time over all their audio. */
  rtf: number;
  p95Ms: number;
}

/** Levenshtein distance between the character sequences of `a` and `b`. */
function editDistance(a: string[], b: string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}

/** Character error rate, ignoring whitespace, punctuation and case. */
export function characterErrorRate(hypothesis: string, reference: string): number {
  const chars = (text: string) => Array.from(text.toLowerCase().replace(/[\s\p{P}]/gu, ''));
  const ref = chars(reference);
  return ref.length === 0 ? 0 : editDistance(chars(hypothesis), ref) / ref.length;
}

export async function evaluateTranscription(options: {
  provider: AiProvider;
  clips: readonly Clip[];
  now?: () => number;
}): Promise<TranscriptionReport> {
  const now = options.now ?? performance.now.bind(performance);
  const clips: ClipReport[] = [];
  for (const clip of options.clips) {
    const seconds = (await decodeOggOpus(clip.audio)).length / PCM_SAMPLE_RATE;
    const started = now();
    const result = await options.provider
      .transcribe(clip.audio, { languageHint: clip.language })
      .catch((error: unknown) => {
        if (error instanceof AiUnavailableError || clips.length === 0)
          throw new EngineUnreachableError(error instanceof Error ? error.message : String(error), {
            cause: error,
          });
        throw error;
      });
    const ms = now() - started;
    const cer = clip.transcript === undefined ? null : characterErrorRate(result.text, clip.transcript);
    clips.push({
      name: clip.name,
      language: clip.language,
      seconds,
      ms,
      rtf: ms / 1000 / seconds,
      text: result.text,
      cer,
    });
  }
  const seconds = clips.reduce((sum, clip) => sum + clip.seconds, 0);
  const ms = clips.reduce((sum, clip) => sum + clip.ms, 0);
  return {
    engine: options.provider.name,
    clips,
    rtf: seconds === 0 ? 0 : ms / 1000 / seconds,
    p95Ms: percentile(
      clips.map((clip) => clip.ms),
      95,
    ),
  };
}
