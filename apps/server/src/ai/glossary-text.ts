import type { GlossaryTerm, TranslateRequest } from './provider.js';

/*
 * Where a room glossary's terms occur in a text: case-insensitively and as whole words for Latin-script
 * terms, exactly for the others (Japanese has no case and no spaces between words). Overlapping terms:
 * the longest wins. The glossary module picks a message's terms with it; the fake engine applies them and
 * the local engine protects them behind placeholders (NLLB cannot be told what to write).
 */

const LATIN_ONLY = /^[\p{Script=Latin}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** One regular expression for all `terms`, longest first, each term its own capture group. */
export function termsPattern(terms: readonly string[]): RegExp | undefined {
  if (terms.length === 0) return undefined;
  const alternatives = terms.map((term) =>
    LATIN_ONLY.test(term) ? `(?<![\\p{L}\\p{N}])(${escape(term)})(?![\\p{L}\\p{N}])` : `(${escape(term)})`,
  );
  return new RegExp(alternatives.join('|'), 'giu');
}

/** The longest-first order every matcher uses. */
export function longestFirst<T extends { term: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => [...b.term].length - [...a.term].length);
}

/** Replaces each occurrence of a term with `replace(index of the term in `ordered`)`. */
export function replaceTerms(
  text: string,
  ordered: readonly GlossaryTerm[],
  replace: (index: number) => string,
): string {
  const pattern = termsPattern(ordered.map((entry) => entry.term));
  if (!pattern) return text;
  return text.replace(pattern, (...groups: unknown[]) => {
    const index = groups.slice(1, ordered.length + 1).findIndex((group) => group !== undefined);
    return index < 0 ? String(groups[0]) : replace(index);
  });
}

/** The text with each term written as its rendering (the fake engine's "translation" of a term). */
export function applyRenderings(text: string, glossary: readonly GlossaryTerm[]): string {
  const ordered = longestFirst(glossary);
  return replaceTerms(text, ordered, (index) => ordered[index]!.rendering);
}

const PLACEHOLDER = /\[\s*G\s*(\d+)\s*\]/giu;
/** Marks a translation whose engine lost a protected term: the renderings it lost follow it. */
export const GLOSSARY_MISSED_MARK = '\u26A0';

/**
 * A text whose terms are placeholders an engine copies through (`[G1]`, ...), and how to put the required
 * renderings back into the engine's output. A placeholder the output lost is a term not rendered: the
 * output is marked, with the lost renderings after the mark.
 */
export function protectTerms(text: string, glossary: readonly GlossaryTerm[]) {
  const ordered = longestFirst(glossary);
  // how often each term was protected, so that a placeholder the engine dropped once is noticed
  const used = new Map<number, number>();
  const protectedText = replaceTerms(text, ordered, (index) => {
    used.set(index, (used.get(index) ?? 0) + 1);
    return `[G${index + 1}]`;
  });
  return {
    text: protectedText,
    restore(output: string): { text: string; complete: boolean } {
      const restored = new Map<number, number>();
      let result = output.replace(PLACEHOLDER, (_whole, digits: string) => {
        const index = Number(digits) - 1;
        const entry = ordered[index];
        if (!entry || !used.has(index)) return '';
        restored.set(index, (restored.get(index) ?? 0) + 1);
        return entry.rendering;
      });
      const lost = [...used]
        .filter(([index, count]) => (restored.get(index) ?? 0) < count)
        .map(([index]) => index);
      if (lost.length === 0) return { text: result, complete: true };
      result = `${result.trim()} [${GLOSSARY_MISSED_MARK} ${lost.map((index) => ordered[index]!.rendering).join(', ')}]`;
      return { text: result, complete: false };
    },
  };
}

/**
 * A translation by an engine that cannot be instructed: the terms go in as placeholders, the output comes
 * back whole (a placeholder streamed in pieces could not be restored) with the renderings put back.
 */
export async function* withProtectedTerms(
  request: TranslateRequest,
  translate: (request: TranslateRequest) => AsyncIterable<string>,
): AsyncIterable<string> {
  if (!request.glossary || request.glossary.length === 0) {
    yield* translate(request);
    return;
  }
  const terms = protectTerms(request.text, request.glossary);
  let output = '';
  for await (const piece of translate({ ...request, text: terms.text, glossary: undefined })) output += piece;
  yield terms.restore(output).text;
}
