import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FakeProvider, fakeTranslation } from '../fake-provider.js';
import { applyRenderings } from '../glossary-text.js';
import { corpusBleu } from './bleu.js';
import { corpusChrf } from './chrf.js';
import { evaluateTranslation, percentile, type EvalPair, type EvalReport } from './translation-eval.js';

/*
 * The translation eval: in-process against the fake engine (failures, hints, glossary), and end to end as
 * `npm run eval:translation` runs it, a process against the fake engine and against an endpoint that
 * refuses, which must say so and exit non-zero.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../');
const script = path.join(root, 'scripts/eval-translation/run.ts');
const tsx = path.join(root, 'node_modules/.bin/tsx');

function runEval(env: Record<string, string>, args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      tsx,
      [script, ...args],
      {
        env: { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'eval-')), ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the translation eval', () => {
  it('scores each direction, counts failures, hints and glossary terms used', async () => {
    const pairs: EvalPair[] = [
      { id: 'a', en: 'Good morning.', ja: 'おはようございます。' },
      {
        id: 'b',
        en: 'It is an idiom, Kenji.',
        ja: 'それは慣用句だよ、健二。',
        glossary: [{ en: 'Kenji', ja: '健二' }],
      },
      { id: 'c', en: 'This one !fail breaks.', ja: '壊れる。' },
    ];
    let clock = 0;
    const report = await evaluateTranslation({
      provider: new FakeProvider(),
      pairs,
      directions: ['en-ja'],
      now: () => (clock += 10),
    });
    const [enJa] = report.directions;
    const hypotheses = ['[ja] Good morning.', '[ja] It is an idiom, 健二.', ''];
    const references = pairs.map((pair) => pair.ja);
    expect(enJa).toEqual({
      direction: 'en-ja',
      sentences: 3,
      failed: 1,
      chrf: corpusChrf(hypotheses, references),
      bleu: corpusBleu(hypotheses, [references], { tokenize: 'char' }),
      bleuTokenizer: 'char',
      hintRate: 0.5,
      latencyMs: { p50: 10, p95: 10 },
      glossary: { terms: 1, used: 1 },
    });
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect([percentile(values, 50), percentile(values, 95), percentile([], 50)]).toEqual([10, 19, 0]);
  });

  it('runs as `npm run eval:translation` against the fake engine: a table and the JSON report', async () => {
    const json = path.join(mkdtempSync(path.join(tmpdir(), 'eval-json-')), 'report.json');
    const run = await runEval({ AI_PROVIDER: 'fake' }, ['--json', json, '--limit', '30']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^engine: fake\ndirection\s+sentences/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as EvalReport;
    const pairs = readFileSync(path.join(root, 'scripts/eval-translation/en-ja.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, 30)
      .map((line) => JSON.parse(line) as EvalPair);
    const expected = (source: 'en' | 'ja', target: 'en' | 'ja') => {
      const hypotheses = pairs.map((pair) =>
        fakeTranslation(
          applyRenderings(
            pair[source],
            (pair.glossary ?? []).map((g) => ({ term: g[source], rendering: g[target] })),
          ),
          target,
        ),
      );
      return corpusChrf(
        hypotheses,
        pairs.map((pair) => pair[target]),
      );
    };
    expect(report.engine).toBe('fake');
    expect(report.directions.map((d) => [d.direction, d.sentences, d.failed])).toEqual([
      ['en-ja', 30, 0],
      ['ja-en', 30, 0],
    ]);
    expect(report.directions[0]!.chrf).toBeCloseTo(expected('en', 'ja'), 10);
    expect(report.directions[1]!.chrf).toBeCloseTo(expected('ja', 'en'), 10);
    for (const row of ['en-ja', 'ja-en']) expect(run.stdout).toContain(`\n${row} `);
  });

  it('says so and exits non-zero when the endpoint cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await runEval({ AI_PROVIDER: 'openai', OPENAI_BASE_URL: url }, ['--limit', '3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/The engine cannot translate: .*Connection error/);
    expect(run.stdout).toBe('');
  });
});
