/*
 * chrF (Popović 2015) as sacreBLEU 2.x computes it (`sacrebleu.metrics.CHRF`): character n-grams of orders
 * 1..6 with whitespace removed, F-beta per order, statistics summed over the corpus. The default is
 * sacreBLEU's: beta 2, no epsilon smoothing (orders neither side has are left out). Checked against
 * sacreBLEU's own test values in chrf.test.ts.
 */

export interface ChrfOptions {
  /** Highest character n-gram order. Default 6. */
  charOrder?: number;
  /** Recall weighs beta times precision. Default 2. */
  beta?: number;
  /** Keep whitespace inside the n-grams. Default false. */
  whitespace?: boolean;
  /** sacreBLEU's `eps_smoothing`: every order counts, an empty one as epsilon. Default false. */
  epsSmoothing?: boolean;
}

const EPSILON = 1e-16;

/** Per order: [hypothesis n-grams, reference n-grams, matching n-grams]. */
type Statistics = number[];

function ngrams(text: string, order: number): Map<string, number> {
  const chars = Array.from(text);
  const counts = new Map<string, number>();
  for (let i = 0; i + order <= chars.length; i += 1) {
    const gram = chars.slice(i, i + order).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function statistics(hypothesis: string, reference: string, options: Required<ChrfOptions>): Statistics {
  const squeeze = (text: string) => (options.whitespace ? text : text.replace(/\s+/gu, ''));
  const hyp = squeeze(hypothesis);
  const ref = squeeze(reference);
  const stats: Statistics = [];
  for (let order = 1; order <= options.charOrder; order += 1) {
    const hypGrams = ngrams(hyp, order);
    const refGrams = ngrams(ref, order);
    let hypTotal = 0;
    let matches = 0;
    for (const [gram, count] of hypGrams) {
      hypTotal += count;
      matches += Math.min(count, refGrams.get(gram) ?? 0);
    }
    let refTotal = 0;
    for (const count of refGrams.values()) refTotal += count;
    stats.push(hypTotal, refTotal, matches);
  }
  return stats;
}

function fScore(stats: Statistics, options: Required<ChrfOptions>): number {
  const factor = options.beta ** 2;
  let score = 0;
  let precisions = 0;
  let recalls = 0;
  let effectiveOrder = 0;
  for (let i = 0; i < options.charOrder; i += 1) {
    const [hyp = 0, ref = 0, match = 0] = stats.slice(3 * i, 3 * i + 3);
    const precision = hyp > 0 ? match / hyp : EPSILON;
    const recall = ref > 0 ? match / ref : EPSILON;
    const denominator = factor * precision + recall;
    score += denominator > 0 ? ((1 + factor) * precision * recall) / denominator : EPSILON;
    if (hyp > 0 && ref > 0) {
      precisions += precision;
      recalls += recall;
      effectiveOrder += 1;
    }
  }
  if (options.epsSmoothing) return (100 * score) / options.charOrder;
  if (effectiveOrder === 0) return 0;
  const precision = precisions / effectiveOrder;
  const recall = recalls / effectiveOrder;
  if (precision + recall === 0) return 0;
  return (100 * (1 + factor) * precision * recall) / (factor * precision + recall);
}

const withDefaults = (options: ChrfOptions): Required<ChrfOptions> => ({
  charOrder: options.charOrder ?? 6,
  beta: options.beta ?? 2,
  whitespace: options.whitespace ?? false,
  epsSmoothing: options.epsSmoothing ?? false,
});

/** Corpus chrF (0..100) of `hypotheses` against one reference each. */
export function corpusChrf(
  hypotheses: readonly string[],
  references: readonly string[],
  options: ChrfOptions = {},
): number {
  if (hypotheses.length !== references.length) throw new Error('chrF needs one reference per hypothesis');
  const full = withDefaults(options);
  const total: Statistics = new Array<number>(3 * full.charOrder).fill(0);
  hypotheses.forEach((hypothesis, index) => {
    const stats = statistics(hypothesis, references[index]!, full);
    stats.forEach((value, at) => (total[at]! += value));
  });
  return fScore(total, full);
}

/** chrF of one sentence (sacreBLEU's `sentence_chrf`). */
export function sentenceChrf(hypothesis: string, reference: string, options: ChrfOptions = {}): number {
  return corpusChrf([hypothesis], [reference], options);
}
