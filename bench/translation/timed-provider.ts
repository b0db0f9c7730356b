import type { AiProvider, TranslateRequest } from '../../apps/server/src/ai/provider.js';
import type { FakeProvider } from '../../apps/server/src/translation/testing/index.js';

/*
 * The in-process translation run's engine: the fake provider, with the time of each chunk it hands to the
 * service, which cannot be seen from outside the server process.
 */

/** The key of one translation: its text and target language. */
export const translationKey = (text: string, target: string) => `${text}\u0000${target}`;

/** Delegates to the fake provider and records when each translation chunk was handed to the service. */
export class TimedProvider implements AiProvider {
  readonly name = 'fake' as const;
  /** translationKey -> emit time of each chunk, in order. */
  readonly chunkTimes = new Map<string, number[]>();
  /** translationKey -> provider time (first request -> last chunk). */
  readonly providerTimes = new Map<string, number>();

  constructor(private readonly inner: FakeProvider) {}

  supports: AiProvider['supports'] = (task, language) => (this.inner as AiProvider).supports(task, language);
  note: AiProvider['note'] = (request) => this.inner.note(request);
  summarize: AiProvider['summarize'] = (request) => this.inner.summarize(request);
  synthesize: AiProvider['synthesize'] = (request) => this.inner.synthesize(request);
  transcribe: AiProvider['transcribe'] = (audio, options) => this.inner.transcribe(audio, options);

  async *translate(request: TranslateRequest): AsyncIterable<string> {
    const key = translationKey(request.text, request.targetLanguage);
    const times: number[] = [];
    this.chunkTimes.set(key, times);
    const start = performance.now();
    for await (const piece of this.inner.translate(request)) {
      times.push(performance.now());
      yield piece;
    }
    this.providerTimes.set(key, performance.now() - start);
  }
}
