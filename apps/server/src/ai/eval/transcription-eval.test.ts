import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FakeProvider } from '../fake-provider.js';
import { characterErrorRate, evaluateTranscription } from './transcription-eval.js';

/*
 * The transcription measure: its character error rate, the real time factor of a clip on a clock the
 * test drives, and `npm run eval:transcription` end to end against the fake engine and against models
 * that are not there (it must say so and exit non-zero).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../../../');
const fixture = (name: string) =>
  new Uint8Array(readFileSync(path.join(root, 'apps/server/src/voice/fixtures', `${name}.opus`)));

function runScript(env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'scripts/eval-transcription.ts')],
      {
        env: { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'asr-')), ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the transcription measure', () => {
  it('counts character errors without whitespace, punctuation or case', () => {
    expect(characterErrorRate('こんにちは、今日はいい天気ですね。', 'こんにちは 今日は いい天気ですね')).toBe(
      0,
    );
    expect(characterErrorRate('こんにちわ', 'こんにちは')).toBeCloseTo(1 / 5, 10);
    expect(characterErrorRate('Thank you', 'thank you for watching')).toBeCloseTo(11 / 19, 10);
    expect(characterErrorRate('', 'abc')).toBe(1);
  });

  it('times each clip against its length', async () => {
    let clock = 0;
    const report = await evaluateTranscription({
      provider: new FakeProvider(),
      clips: [
        {
          name: 'thanks-en',
          audio: fixture('thanks-en'),
          language: 'en',
          transcript: 'Thank you for watching.',
        },
      ],
      now: () => (clock += 750),
    });
    const [clip] = report.clips;
    expect(clip).toMatchObject({ name: 'thanks-en', ms: 750, text: 'Thank you for watching.', cer: 0 });
    expect(clip!.seconds).toBeGreaterThan(1);
    expect(clip!.rtf).toBeCloseTo(0.75 / clip!.seconds, 10);
    expect(report.rtf).toBeCloseTo(clip!.rtf, 10);
  });

  it('runs as `npm run eval:transcription`, and says so when the model is not there', async () => {
    const fake = await runScript({ AI_PROVIDER: 'fake' });
    expect(fake.code).toBe(0);
    expect(fake.stdout).toMatch(/^engine: fake\nhello-en +en +4\.\d s/);
    expect(fake.stdout).toMatch(/konnichiwa-ja +ja .* CER 0\.0% +こんにちは/);
    expect(fake.stdout).toMatch(/\nRTF \d+\.\d{3} over all clips/);
    const missing = await runScript({ AI_PROVIDER: 'local' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /The engine cannot transcribe: transcription unavailable: model onnx-community\/whisper-small/,
    );
  });
});
