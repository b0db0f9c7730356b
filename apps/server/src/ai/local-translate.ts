import type { AiTask, TranslateRequest } from './provider.js';
import { AiUnavailableError, languageName } from './provider.js';
import { cardOf } from './local-catalogue.js';
import { nllbCode, translatorOf, type LoadedModel } from './local-models.js';
import { pushedStream } from './pushed-stream.js';

/*
 * Translation on the embedded engine, by either kind of model: NLLB-style models take language codes
 * (`src_lang`, `tgt_lang`), a chat model such as CAT-Translate takes an instruction. Both stream their
 * tokens through the model's streamer.
 */

/** Runs `fn` on the loaded `model` for `task` (LocalProvider's queue per model). */
export type RunOnModel = <T>(
  task: AiTask,
  model: string,
  fn: (loaded: LoadedModel) => Promise<T>,
) => Promise<T>;

/** Whether `model` translates from or into `language` (undefined: at all). */
export function translatesWith(model: string, language?: string): boolean {
  if (language === undefined) return true;
  const languages = cardOf(model)?.languages;
  if (languages) return languages.includes(language.split('-')[0] ?? language);
  return nllbCode(language) !== undefined;
}

/** The instruction a chat translation model is given: the text alone, nothing to answer but its translation. */
export function chatTranslationMessages(text: string, source: string, target: string) {
  return [
    {
      role: 'user',
      content: `Translate the following ${languageName(source)} text into ${languageName(target)}.\n\n${text}`,
    },
  ];
}

/** The assistant's answer in a text-generation pipeline's output (chat input), or its text. */
export function generatedText(output: unknown): string {
  const generated = (output as Array<{ generated_text?: unknown }>)[0]?.generated_text;
  if (typeof generated === 'string') return generated;
  if (Array.isArray(generated)) {
    const last = generated.at(-1) as { role?: string; content?: unknown } | undefined;
    if (last?.role === 'assistant' && typeof last.content === 'string') return last.content;
  }
  return '';
}

export async function* translateOn(
  run: RunOnModel,
  model: string,
  request: TranslateRequest,
): AsyncIterable<string> {
  const { sourceLanguage, targetLanguage } = request;
  if (!translatesWith(model, sourceLanguage) || !translatesWith(model, targetLanguage)) {
    const missing = translatesWith(model, sourceLanguage) ? targetLanguage : sourceLanguage;
    throw new AiUnavailableError(
      'translation',
      `translation unavailable: the local model does not know '${missing}'`,
    );
  }
  if (translatorOf(model) === 'nllb') {
    const options = {
      src_lang: nllbCode(sourceLanguage),
      tgt_lang: nllbCode(targetLanguage),
      max_new_tokens: 400,
    };
    const whole = (output: unknown) =>
      (output as Array<{ translation_text?: string }>)[0]?.translation_text ?? '';
    yield* pushedStream(
      (push) =>
        run('translation', model, (loaded) =>
          loaded.run(request.text, {
            ...options,
            ...(loaded.streamer ? { streamer: loaded.streamer(push) } : {}),
          }),
        ),
      whole,
      request.signal,
    );
    return;
  }
  const messages = chatTranslationMessages(request.text, sourceLanguage, targetLanguage);
  yield* pushedStream(
    (push) =>
      run('translation', model, (loaded) =>
        loaded.run(messages, {
          max_new_tokens: 400,
          do_sample: false,
          ...(loaded.streamer ? { streamer: loaded.streamer(push) } : {}),
        }),
      ),
    (output) => generatedText(output).trim(),
    request.signal,
  );
}
