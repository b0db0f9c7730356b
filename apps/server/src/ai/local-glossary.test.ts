import { describe, expect, it } from 'vitest';
import { applyRenderings, GLOSSARY_MISSED_MARK, protectTerms } from './glossary-text.js';
import type { LoadedModel, LocalModelLoader } from './local-models.js';
import { LocalProvider } from './local-provider.js';
import { AiUnavailableError, type GlossaryTerm } from './provider.js';
import { collect } from './testing/collect.js';
import { recordingLogger } from './testing/logger.js';

/*
 * The local engine cannot be told what to write: the room glossary's terms go through a fake NLLB as
 * placeholders and their renderings are put back; a translation that lost a placeholder is marked, with
 * the renderings it lost after the mark. It writes no summaries.
 */

/** A fake NLLB: "translates" by upper-casing, streaming word by word; `drop` loses placeholders. */
function fakeNllb(inputs: string[], options: { drop?: boolean } = {}): LocalModelLoader {
  return async () => {
    let onText: ((text: string) => void) | undefined;
    const model: LoadedModel = {
      streamer: (callback) => {
        onText = callback;
        return {};
      },
      run: async (input) => {
        inputs.push(String(input));
        let text = `JA: ${String(input).toUpperCase()}`;
        if (options.drop) text = text.replace(/\[G1\]/u, 'something');
        // NLLB tends to space out brackets: the restore still finds them
        text = text.replace(/\[G(\d+)\]/gu, '[ G$1 ]');
        for (const word of text.match(/\S+\s*/gu) ?? []) onText?.(word);
        return [{ translation_text: text }];
      },
    };
    return model;
  };
}

function provider(loader: LocalModelLoader) {
  return new LocalProvider({
    modelsDir: '/nonexistent',
    logger: recordingLogger().logger,
    loader,
    allowDownload: false,
    models: { translation: 'Xenova/nllb-200-distilled-600M' },
  });
}

const glossary: GlossaryTerm[] = [
  { term: 'Kite', rendering: 'カイト' },
  { term: 'Shota', rendering: 'Shota' },
];

describe('the local engine and the glossary', () => {
  it('protects the terms behind placeholders and restores the renderings after', async () => {
    const inputs: string[] = [];
    const local = provider(fakeNllb(inputs));
    const pieces = await collect(
      local.translate({
        text: 'Shota flies the kite with Shota',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
        glossary,
      }),
    );
    expect(inputs).toEqual(['[G1] flies the [G2] with [G1]']);
    // one piece: a placeholder streamed in halves could not be restored
    expect(pieces).toEqual(['JA: Shota FLIES THE カイト WITH Shota']);
  });

  it('marks a translation that lost a protected term, naming the rendering it lost', async () => {
    const local = provider(fakeNllb([], { drop: true }));
    const text = (
      await collect(
        local.translate({
          text: 'Shota and Kite',
          sourceLanguage: 'en',
          targetLanguage: 'ja',
          context: [],
          glossary,
        }),
      )
    ).join('');
    expect(text).toBe(`JA: something AND カイト [${GLOSSARY_MISSED_MARK} Shota]`);
  });

  it('streams as before without a glossary', async () => {
    const inputs: string[] = [];
    const pieces = await collect(
      provider(fakeNllb(inputs)).translate({
        text: 'a kite',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      }),
    );
    expect(inputs).toEqual(['a kite']);
    expect(pieces).toEqual(['JA: ', 'A ', 'KITE']);
  });

  it('says summaries are not supported instead of writing one', async () => {
    const local = provider(fakeNllb([]));
    expect(local.supports('summary')).toBe(false);
    await expect(collect(local.summarize({ messages: [], language: 'en' }))).rejects.toBeInstanceOf(
      AiUnavailableError,
    );
  });
});

describe('finding terms', () => {
  it('matches Latin terms case-insensitively as whole words and Japanese exactly, longest first', () => {
    const terms: GlossaryTerm[] = [
      { term: 'kite', rendering: 'カイト' },
      { term: 'Kite Runner', rendering: 'カイトランナー' },
      { term: '翔太', rendering: 'Shota' },
    ];
    expect(applyRenderings('KITE, kites, Kite Runner; 翔太さん', terms)).toBe(
      'カイト, kites, カイトランナー; Shotaさん',
    );
    const protectedText = protectTerms('翔太 and kite', terms);
    expect(protectedText.text).toBe('[G3] and [G2]');
    expect(protectedText.restore('[G3] y [G2] [G9]')).toEqual({ text: 'Shota y カイト ', complete: true });
  });
});
