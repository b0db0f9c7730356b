/*
 * BLEU (Papineni et al. 2002) as sacreBLEU 2.x computes it (`sacrebleu.metrics.BLEU`): n-grams of orders
 * 1..4 over tokens, clipped by the most any reference has, the reference length closest to the
 * hypothesis's for the brevity penalty, statistics summed over the corpus, `exp` smoothing. Tokenizers:
 * `13a` (sacreBLEU's default, mteval-v13a's rules) for English, `char` (every character a token) for
 * Japanese, which has no spaces (sacreBLEU's `ja-mecab` needs MeCab; `char` is its dictionary-free
 * stand-in), and `none`. Checked against sacreBLEU's own test values in bleu.test.ts.
 */

export type BleuTokenizer = '13a' | 'char' | 'none';

export interface BleuOptions {
  tokenize?: BleuTokenizer;
  /** `exp` (default), `floor` (with `smoothValue`) or `none`. */
  smoothMethod?: 'exp' | 'floor' | 'none';
  smoothValue?: number;
  /** Score over the orders the hypotheses have (sacreBLEU's sentence-level default). */
  effectiveOrder?: boolean;
}

const MAX_ORDER = 4;

/** mteval-v13a's tokenisation, as sacreBLEU's `Tokenizer13a`. */
export function tokenize13a(line: string): string {
  let text = line.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  if (text.includes('&')) {
    text = text
      .replaceAll('&quot;', '"')
      .replaceAll('&amp;', '&')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>');
  }
  text = ` ${text} `
    .replace(/([{-~[-` -&(-+:-@/])/g, ' $1 ')
    .replace(/([^0-9])([.,])/g, '$1 $2 ')
    .replace(/([.,])([^0-9])/g, ' $1 $2')
    .replace(/([0-9])(-)/g, '$1 $2 ');
  return text.split(/\s+/).filter(Boolean).join(' ');
}

export function tokenizeFor(tokenizer: BleuTokenizer): (line: string) => string {
  if (tokenizer === '13a') return tokenize13a;
  if (tokenizer === 'char') return (line) => Array.from(line).join(' ');
  return (line) => line;
}

/** The n-gram counts of orders 1..4 of a tokenised line, and its length in tokens. */
function ngramsOf(line: string): { counts: Map<string, number>; length: number } {
  const tokens = line.split(/\s+/).filter(Boolean);
  const counts = new Map<string, number>();
  for (let order = 1; order <= MAX_ORDER; order += 1)
    for (let i = 0; i + order <= tokens.length; i += 1) {
      const gram = `${order}\u0000${tokens.slice(i, i + order).join('\u0001')}`;
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  return { counts, length: tokens.length };
}

export interface BleuStatistics {
  correct: number[];
  total: number[];
  hypothesisLength: number;
  referenceLength: number;
}

/** The statistics of one hypothesis against its references (already tokenised). */
function segmentStatistics(hypothesis: string, references: readonly string[]): BleuStatistics {
  const hyp = ngramsOf(hypothesis);
  const most = new Map<string, number>();
  const lengths: number[] = [];
  for (const reference of references) {
    const ref = ngramsOf(reference);
    lengths.push(ref.length);
    for (const [gram, count] of ref.counts) most.set(gram, Math.max(most.get(gram) ?? 0, count));
  }
  // the closest reference length, the shorter one on a tie
  let referenceLength = lengths[0] ?? 0;
  for (const length of lengths) {
    const better = Math.abs(length - hyp.length) - Math.abs(referenceLength - hyp.length);
    if (better < 0 || (better === 0 && length < referenceLength)) referenceLength = length;
  }
  const correct = new Array<number>(MAX_ORDER).fill(0);
  const total = new Array<number>(MAX_ORDER).fill(0);
  for (const [gram, count] of hyp.counts) {
    const order = Number(gram.slice(0, gram.indexOf('\u0000')));
    correct[order - 1]! += Math.min(count, most.get(gram) ?? 0);
  }
  for (let order = 1; order <= MAX_ORDER; order += 1) total[order - 1] = Math.max(0, hyp.length - order + 1);
  return { correct, total, hypothesisLength: hyp.length, referenceLength };
}

/** BLEU (0..100) from summed statistics, as sacreBLEU's `compute_bleu`. */
export function bleuFromStatistics(stats: BleuStatistics, options: BleuOptions = {}): number {
  const { correct, total, hypothesisLength: sys, referenceLength: ref } = stats;
  const method = options.smoothMethod ?? 'exp';
  if (sys === 0) return 0;
  const brevity = sys >= ref ? 1 : Math.exp(1 - ref / sys);
  const precisions = new Array<number>(MAX_ORDER).fill(0);
  let smooth = 1;
  let order = MAX_ORDER;
  for (let n = 1; n <= MAX_ORDER; n += 1) {
    if (total[n - 1] === 0) break;
    if (options.effectiveOrder) order = n;
    if (correct[n - 1] === 0) {
      if (method === 'exp') {
        smooth *= 2;
        precisions[n - 1] = 100 / (smooth * total[n - 1]!);
      } else if (method === 'floor') {
        precisions[n - 1] = (100 * (options.smoothValue ?? 0.1)) / total[n - 1]!;
      }
    } else precisions[n - 1] = (100 * correct[n - 1]!) / total[n - 1]!;
  }
  const logs = precisions.slice(0, order).map((p) => (p === 0 ? -9_999_999_999 : Math.log(p)));
  return brevity * Math.exp(logs.reduce((sum, value) => sum + value, 0) / order);
}

/**
 * Corpus BLEU (0..100): `references[r][i]` is reference stream r's translation of hypothesis i (one or
 * more streams, as sacreBLEU's `corpus_bleu`).
 */
export function corpusBleu(
  hypotheses: readonly string[],
  references: readonly (readonly string[])[],
  options: BleuOptions = {},
): number {
  if (references.some((stream) => stream.length !== hypotheses.length))
    throw new Error('BLEU needs every reference stream as long as the hypotheses');
  const tokenize = tokenizeFor(options.tokenize ?? '13a');
  const sum: BleuStatistics = {
    correct: new Array<number>(MAX_ORDER).fill(0),
    total: new Array<number>(MAX_ORDER).fill(0),
    hypothesisLength: 0,
    referenceLength: 0,
  };
  hypotheses.forEach((hypothesis, index) => {
    const refs = references.map((stream) => tokenize(stream[index]!));
    const stats = segmentStatistics(tokenize(hypothesis), refs);
    for (let n = 0; n < MAX_ORDER; n += 1) {
      sum.correct[n]! += stats.correct[n]!;
      sum.total[n]! += stats.total[n]!;
    }
    sum.hypothesisLength += stats.hypothesisLength;
    sum.referenceLength += stats.referenceLength;
  });
  return bleuFromStatistics(sum, options);
}
