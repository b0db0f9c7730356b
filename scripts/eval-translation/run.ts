import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAiProvider, type Logger } from '../../apps/server/src/ai/index.js';
import {
  EngineUnreachableError,
  evaluateTranslation,
  reportTable,
  type Direction,
  type EvalPair,
} from '../../apps/server/src/ai/eval/translation-eval.js';
import { loadConfig } from '../../apps/server/src/config.js';

/*
 * `npm run eval:translation`: the translation score of the engine the server's settings choose
 * (AI_PROVIDER, OPENAI_* or the embedded models in MODELS_DIR), over the EN<->JA set beside this file
 * (README.md there). Prints a table; `--json FILE` also writes the report as JSON. Exits 2 when the engine
 * cannot serve at all (weights missing, endpoint unreachable) and 1 when any sentence failed.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    set: { type: 'string', default: path.join(here, 'en-ja.jsonl') },
    json: { type: 'string' },
    limit: { type: 'string' },
    directions: { type: 'string', default: 'en-ja,ja-en' },
  },
});

const quiet = () => undefined;
/** Engines' own lines go to stderr, below warnings only: the table is the output. */
const logger: Logger = {
  info: quiet,
  debug: quiet,
  warn: (...args: unknown[]) => console.error('warn:', args.at(-1)),
  error: (...args: unknown[]) => console.error('error:', args.at(-1)),
};

function readSet(file: string, limit: number | undefined): EvalPair[] {
  const pairs = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EvalPair);
  return limit === undefined ? pairs : pairs.slice(0, limit);
}

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  // the run reads what is on disk: an eval never fetches weights (`npm run models` does)
  const provider = createAiProvider(config, logger, { local: { allowDownload: false } });
  const pairs = readSet(values.set, values.limit === undefined ? undefined : Number(values.limit));
  const directions = values.directions.split(',').map((d) => d.trim()) as Direction[];
  let lastLine = '';
  try {
    const report = await evaluateTranslation({
      provider,
      pairs,
      directions,
      timeoutMs: config.AI_TIMEOUT_MS,
      onSentence: (direction, done, total) => {
        const line = `${direction} ${done}/${total}`;
        if (process.stderr.isTTY && line !== lastLine) process.stderr.write(`\r${(lastLine = line)}`);
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.log(reportTable(report));
    if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
    return report.directions.some((d) => d.failed > 0) ? 1 : 0;
  } catch (error) {
    if (!(error instanceof EngineUnreachableError)) throw error;
    console.error(`The engine cannot translate: ${error.message}`);
    return 2;
  } finally {
    await provider.close?.();
  }
}

process.exitCode = await main();
