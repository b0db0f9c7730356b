import { expect, it, vi } from 'vitest';
import { fetchModels, progressBar } from './fetch-models.js';
import { DEFAULT_LOCAL_MODELS, type LocalModelLoader } from './local-models.js';

/*
 * `npm run models` with a fake loader (the hub is not reachable here): every configured model is fetched
 * with downloads allowed, its progress drawn as a bar, verified by loading, and a failure named.
 */

it('fetches every configured model with a progress bar, verifies it, and names the one that fails', async () => {
  const disposed: string[] = [];
  const loader = vi.fn<LocalModelLoader>(async (_task, model, options) => {
    if (model === 'Xenova/mms-tts-eng') throw new Error('fetch failed', { cause: { code: 'ENOTFOUND' } });
    options.onProgress({ status: 'progress', file: 'model.onnx', loaded: 50, total: 100 });
    options.onProgress({ status: 'progress', file: 'model.onnx', loaded: 100, total: 100 });
    return { run: async () => null, dispose: async () => void disposed.push(model) };
  });
  let out = '';
  const result = await fetchModels({
    models: { ...DEFAULT_LOCAL_MODELS, speech: { en: 'Xenova/mms-tts-eng' } },
    modelsDir: '/models',
    loader,
    write: (text) => (out += text),
  });
  expect(loader.mock.calls.map(([task, model, options]) => [task, model, options.allowDownload])).toEqual([
    ['text-generation', DEFAULT_LOCAL_MODELS.translation, true],
    ['automatic-speech-recognition', DEFAULT_LOCAL_MODELS.transcription, true],
    ['text-to-speech', 'Xenova/mms-tts-eng', true],
    ['text-generation', DEFAULT_LOCAL_MODELS.hint, true],
  ]);
  expect(result).toEqual({
    ready: [DEFAULT_LOCAL_MODELS.translation, DEFAULT_LOCAL_MODELS.transcription, DEFAULT_LOCAL_MODELS.hint],
    failed: [{ model: 'Xenova/mms-tts-eng', reason: 'fetch failed (ENOTFOUND)' }],
  });
  expect(disposed).toEqual(result.ready);
  expect(out).toContain(`${DEFAULT_LOCAL_MODELS.translation} (translation, MIT, about 0.6 GB)\n`);
  expect(out).toContain(`  ${progressBar(50)}\n  ${progressBar(100)}\n  verified: it loads\n`);
  expect(out).toContain(
    'Xenova/mms-tts-eng (voice, CC-BY-NC-4.0, about 0.03 GB)\n  FAILED: fetch failed (ENOTFOUND)\n',
  );
  expect(progressBar(50)).toBe(`[${'#'.repeat(15)}${'-'.repeat(15)}]  50%`);
});
