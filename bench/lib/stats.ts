/* Percentiles and medians for the report. Values are milliseconds unless said otherwise. */

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export function summarise(values: readonly number[]): Summary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : 0,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? (sorted[sorted.length - 1] ?? 0) : 0,
  };
}

export function median(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 0.5);
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** The median of a figure over rounds, with the lowest and highest beside it (the swing between runs). */
export function medianRange(values: readonly number[]): { median: number; min: number; max: number } {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Round `r`'s order of `items`: each round starts one further along, so none always goes first. */
export const inTurn = <T>(items: readonly T[], r: number): T[] =>
  items.map((_, i) => items[(i + r) % items.length]!);
