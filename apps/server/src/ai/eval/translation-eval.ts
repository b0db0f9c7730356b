import type { AiProvider, GlossaryTerm } from '../provider.js';
import { AiUnavailableError } from '../provider.js';
import { corpusBleu, type BleuTokenizer } from './bleu.js';
import { corpusChrf } from './chrf.js';

/*
 * The translation score of any engine: every pair of a test set translated in both directions through
 * the provider the server would use, scored against the set's references with chrF (beta 2) and BLEU
 * (13a into English, `char` into Japanese), with the hint rate, the latency percentiles and how exactly
 * the glossary's renderings were used. An engine that cannot serve at all (weights not loadable, an
 * endpoint not reachable) stops the run with its message: a score of nothing would mislead.
 */

export interface EvalPair {
  id: string;
  en: string;
  ja: string;
  /** Terms the translation must render as given (a room glossary's entries). */
  glossary?: Array<{ en: string; ja: string }>;
}

export type Direction = 'en-ja' | 'ja-en';

export interface DirectionReport {
  direction: Direction;
  sentences: number;
  failed: number;
  chrf: number;
  bleu: number;
  bleuTokenizer: BleuTokenizer;
  /** Share of sentences given a hint; null where the engine writes none. */
  hintRate: number | null;
  latencyMs: { p50: number; p95: number };
  glossary: { terms: number; used: number };
}

export interface EvalReport {
  engine: string;
  directions: DirectionReport[];
}

export interface EvalOptions {
  provider: AiProvider;
  pairs: readonly EvalPair[];
  directions?: readonly Direction[];
  /** Per-call limit (ms). Default 60 000. */
  timeoutMs?: number;
  now?: () => number;
  /** Called after each sentence, for a progress line. */
  onSentence?: (direction: Direction, done: number, total: number) => void;
}

/** The engine cannot serve the run at all. */
export class EngineUnreachableError extends Error {}

/** Nearest-rank percentile of `values` (ms), 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const describe = (error: unknown) => {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause instanceof Error ? error.cause.message : '';
  const cause = inner && !error.message.includes(inner) ? ` (${inner})` : '';
  return `${error.message}${cause}`;
};

async function collect(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}

interface Outcome {
  hypothesis: string;
  ms: number;
  hint: boolean | null;
  failed: boolean;
}

/**
 * One sentence through the engine. A failure before any sentence has succeeded means the engine cannot
 * serve (an endpoint that refuses, weights that do not load): the run stops with it.
 */
async function translateOne(
  options: EvalOptions,
  text: string,
  [source, target]: [string, string],
  glossary: GlossaryTerm[],
  served: boolean,
): Promise<Outcome> {
  const { provider, now = performance.now.bind(performance) } = options;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const started = now();
  try {
    const hypothesis = await collect(
      provider.translate({
        text,
        sourceLanguage: source,
        targetLanguage: target,
        context: [],
        glossary,
        signal,
      }),
    );
    const ms = now() - started;
    let hint: boolean | null = null;
    if (provider.supports('note', target)) {
      const note = await provider
        .note({ text, sourceLanguage: source, noteLanguage: target, context: [], signal })
        .catch((error: unknown) => {
          if (error instanceof AiUnavailableError) return undefined;
          throw error;
        });
      hint = note === undefined ? null : note !== null;
    }
    return { hypothesis, ms, hint, failed: false };
  } catch (error) {
    if (!served || (error instanceof AiUnavailableError && error.task === 'translation'))
      throw new EngineUnreachableError(describe(error), { cause: error });
    return { hypothesis: '', ms: now() - started, hint: null, failed: true };
  }
}

async function runDirection(
  options: EvalOptions,
  direction: Direction,
  served: { yes: boolean },
): Promise<DirectionReport> {
  const [source, target] = direction.split('-') as ['en' | 'ja', 'en' | 'ja'];
  const hypotheses: string[] = [];
  const references: string[] = [];
  const latencies: number[] = [];
  let failed = 0;
  let hints = 0;
  let hinted = 0;
  const glossary = { terms: 0, used: 0 };
  for (const [index, pair] of options.pairs.entries()) {
    const terms = (pair.glossary ?? []).map((entry) => ({ term: entry[source], rendering: entry[target] }));
    const outcome = await translateOne(options, pair[source], [source, target], terms, served.yes);
    if (!outcome.failed) served.yes = true;
    hypotheses.push(outcome.hypothesis);
    references.push(pair[target]);
    if (outcome.failed) failed += 1;
    else latencies.push(outcome.ms);
    if (outcome.hint !== null) {
      hinted += 1;
      if (outcome.hint) hints += 1;
    }
    for (const term of terms) {
      glossary.terms += 1;
      if (outcome.hypothesis.includes(term.rendering)) glossary.used += 1;
    }
    options.onSentence?.(direction, index + 1, options.pairs.length);
  }
  const bleuTokenizer: BleuTokenizer = target === 'ja' ? 'char' : '13a';
  return {
    direction,
    sentences: options.pairs.length,
    failed,
    chrf: corpusChrf(hypotheses, references),
    bleu: corpusBleu(hypotheses, [references], { tokenize: bleuTokenizer }),
    bleuTokenizer,
    hintRate: hinted === 0 ? null : hints / hinted,
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    glossary,
  };
}

export async function evaluateTranslation(options: EvalOptions): Promise<EvalReport> {
  const directions: DirectionReport[] = [];
  const served = { yes: false };
  for (const direction of options.directions ?? ['en-ja', 'ja-en'])
    directions.push(await runDirection(options, direction, served));
  return { engine: options.provider.name, directions };
}

const fixed = (value: number) => value.toFixed(2);

/** The report as a plain-text table. */
export function reportTable(report: EvalReport): string {
  const head = ['direction', 'sentences', 'failed', 'chrF', 'BLEU', 'hints', 'p50 ms', 'p95 ms', 'glossary'];
  const rows = report.directions.map((d) => [
    d.direction,
    String(d.sentences),
    String(d.failed),
    fixed(d.chrf),
    `${fixed(d.bleu)} (${d.bleuTokenizer})`,
    d.hintRate === null ? 'none' : `${fixed(100 * d.hintRate)}%`,
    d.latencyMs.p50.toFixed(0),
    d.latencyMs.p95.toFixed(0),
    `${d.glossary.used}/${d.glossary.terms}`,
  ]);
  const widths = head.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  return [`engine: ${report.engine}`, line(head), ...rows.map(line)].join('\n');
}
