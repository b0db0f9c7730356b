/*
 * Where a translation's sentences end, as it streams in, so that each is spoken as soon as it is complete.
 * Japanese and Chinese end at 。！？ (and their half-width forms), whatever follows; English and other
 * space-separated scripts at . ! ? followed by a space. A boundary is taken only once the next character
 * is in, so a closing quote or bracket stays with its sentence and "3.5" or "e.g." do not split. A full
 * stop after a known abbreviation or a single capital (an initial) ends nothing, nor does an end mark
 * inside a quote that the sentence goes on after.
 */

const CJK_ENDS = '。！？｡';
const LATIN_ENDS = '.!?';
/** Closing quotes and brackets that belong to the sentence before them. */
const CLOSERS = '"\'”’)]}」』）】》〉';
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'sr',
  'jr',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'fig',
  'approx',
  'inc',
  'ltd',
  'co',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'a.m',
  'p.m',
  'u.s',
  'u.k',
  'mt',
  'ave',
]);

const isEnd = (char: string) => CJK_ENDS.includes(char) || LATIN_ENDS.includes(char);

/** The word before a full stop at `dot` (letters and inner dots), lower-cased. */
function wordBefore(text: string, dot: number): string {
  let start = dot;
  while (start > 0 && /[\p{L}.]/u.test(text[start - 1]!)) start -= 1;
  return text.slice(start, dot).toLowerCase();
}

function isAbbreviation(text: string, dot: number): boolean {
  const word = wordBefore(text, dot);
  if (word === '') return false;
  if (ABBREVIATIONS.has(word)) return true;
  // an initial ("J. Smith") or a dotted short form ("U.S.")
  return /^\p{Lu}$/u.test(text.slice(dot - 1, dot)) && word.length === 1
    ? true
    : /^(\p{L}\.)+\p{L}$/u.test(word);
}

/**
 * The end (exclusive) of the first sentence in `text` from `from`, once what follows it is known;
 * undefined when no sentence is complete yet.
 */
function sentenceEnd(text: string, from: number): number | undefined {
  for (let i = from; i < text.length; i += 1) {
    const char = text[i]!;
    if (!isEnd(char)) continue;
    let end = i + 1;
    while (end < text.length && (isEnd(text[end]!) || CLOSERS.includes(text[end]!))) end += 1;
    if (end >= text.length) return undefined; // what follows decides
    const run = text.slice(i, end);
    const quoted = [...run].some((c) => CLOSERS.includes(c));
    if ([...run].some((c) => CJK_ENDS.includes(c))) {
      // 「はい！」と言った。: an exclamation inside a quote ends no sentence
      if (quoted) {
        i = end - 1;
        continue;
      }
      return end;
    }
    if (!/\s/u.test(text[end]!)) {
      i = end - 1;
      continue;
    }
    // "Fine!" she said.: a quote's end followed by a lower-case word goes on
    if (quoted) {
      const after = text.slice(end).match(/^\s+(\S)/u);
      if (!after) return undefined; // the next word decides
      if (/\p{Ll}/u.test(after[1]!)) {
        i = end - 1;
        continue;
      }
    }
    if (char === '.' && end === i + 1 && isAbbreviation(text, i)) continue;
    return end;
  }
  return undefined;
}

export interface SentenceSplitter {
  /** Adds a piece of the text; returns the sentences it completed, in order. */
  push(piece: string): string[];
  /** The text after the last complete sentence (the final sentence once the text is whole). */
  rest(): string;
}

export function createSentenceSplitter(): SentenceSplitter {
  let text = '';
  let scanned = 0;
  return {
    push(piece) {
      text += piece;
      const sentences: string[] = [];
      for (;;) {
        const end = sentenceEnd(text, scanned);
        if (end === undefined) {
          scanned = Math.max(0, text.length - 1);
          break;
        }
        const sentence = text.slice(0, end).trim();
        if (sentence) sentences.push(sentence);
        text = text.slice(end);
        scanned = 0;
      }
      return sentences;
    },
    rest: () => text.trim(),
  };
}

/** The sentences of a whole text. */
export function splitSentences(text: string): string[] {
  const splitter = createSentenceSplitter();
  const sentences = splitter.push(text);
  const rest = splitter.rest();
  return rest ? [...sentences, rest] : sentences;
}
