import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAiProvider, type Logger } from '../apps/server/src/ai/index.js';
import { EngineUnreachableError } from '../apps/server/src/ai/eval/translation-eval.js';
import { evaluateTranscription, type Clip } from '../apps/server/src/ai/eval/transcription-eval.js';
import { loadConfig } from '../apps/server/src/config.js';

/*
 * `npm run eval:transcription`: the real time factor (and character error rate) of the transcription
 * engine the settings choose, on the spoken clips of the voice tests (apps/server/src/voice/fixtures).
 * Run it on the machine to judge: the RTF is that machine's. Exits 2 when the engine cannot serve.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '../apps/server/src/voice/fixtures');
const HELLO = 'Hello everyone, this message was spoken into the microphone.';
/** The spoken clips and what they say (fixtures/README.md tells how they were made). */
const SPOKEN: Array<[name: string, language: string, transcript: string]> = [
  ['hello-en', 'en', HELLO],
  ['thanks-en', 'en', 'Thank you for watching.'],
  ['konnichiwa-ja', 'ja', 'こんにちは、今日はいい天気ですね。'],
  ['hello-3x-en', 'en', `${HELLO} ${HELLO} ${HELLO}`],
];

const clipOf = ([name, language, transcript]: (typeof SPOKEN)[number]): Clip => ({
  name,
  language,
  transcript,
  audio: new Uint8Array(readFileSync(path.join(fixtures, `${name}.opus`))),
});

const quiet = () => undefined;
const logger: Logger = {
  info: quiet,
  debug: quiet,
  warn: quiet,
  error: (...args: unknown[]) => console.error(args.at(-1)),
};

const config = loadConfig(process.env);
const provider = createAiProvider(config, logger, { local: { allowDownload: false } });
try {
  const report = await evaluateTranscription({ provider, clips: SPOKEN.map(clipOf) });
  console.log(`engine: ${report.engine}`);
  for (const clip of report.clips)
    console.log(
      `${clip.name.padEnd(14)} ${clip.language}  ${clip.seconds.toFixed(1)} s  ${clip.ms.toFixed(0)} ms  ` +
        `RTF ${clip.rtf.toFixed(2)}  CER ${clip.cer === null ? '-' : (100 * clip.cer).toFixed(1) + '%'}  ${clip.text}`,
    );
  console.log(`RTF ${report.rtf.toFixed(3)} over all clips, p95 ${report.p95Ms.toFixed(0)} ms`);
} catch (error) {
  if (!(error instanceof EngineUnreachableError)) throw error;
  console.error(`The engine cannot transcribe: ${error.message}`);
  process.exitCode = 2;
} finally {
  await provider.close?.();
}
