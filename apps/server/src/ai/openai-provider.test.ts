import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiProvider } from './openai-provider.js';
import type { FakeOpenAiServer } from './testing/fake-openai-server.js';
import { startFakeOpenAiServer } from './testing/fake-openai-server.js';
import { sineWav } from '../audio/index.js';
import { collect } from './testing/collect.js';

let server: FakeOpenAiServer;

function provider(transcriptionModel = 'whisper-1'): OpenAiProvider {
  return new OpenAiProvider({
    apiKey: 'k',
    baseURL: server.baseURL,
    translationModel: 'm-translate',
    ttsModel: 'm-tts',
    ttsVoice: 'v',
    transcriptionModel,
  });
}

beforeEach(async () => {
  server = await startFakeOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

describe('openai provider', () => {
  it('transcribes through a real multipart upload and reports the detected language (verbose_json)', async () => {
    server.transcription = { text: 'こんにちは', language: 'japanese' };
    const audio = new Uint8Array([79, 103, 103, 83, 1, 2, 3, 4]); // "OggS..."
    const result = await provider().transcribe(audio, { languageHint: 'ja', mimeType: 'audio/ogg' });
    expect(result).toEqual({ text: 'こんにちは', language: 'ja' });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/audio/transcriptions');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.body).toMatchObject({
      model: 'whisper-1',
      language: 'ja',
      response_format: 'verbose_json',
    });
    expect(request?.body.file).toMatchObject({ name: 'speech.ogg', type: 'audio/ogg', size: audio.length });
  });

  it('falls back to the script of the text when the model reports no language (json)', async () => {
    server.transcription = { text: 'すみません、駅はどこですか' };
    const result = await provider('gpt-4o-mini-transcribe').transcribe(sineWav(0.1), {
      mimeType: 'audio/wav',
    });
    expect(result.language).toBe('ja');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini-transcribe',
      response_format: 'json',
    });
    expect(server.requests[0]?.body.language).toBeUndefined();
  });

  it('returns WAV speech and rejects a body that is not WAV', async () => {
    const wav = await provider().synthesize({ text: 'hello', language: 'en' });
    expect(String.fromCharCode(...wav.subarray(0, 4))).toBe('RIFF');
    server.speechStatus = 500;
    await expect(provider().synthesize({ text: 'hello', language: 'en' })).rejects.toMatchObject({
      status: 500,
    });
  });

  it('streams a translation as pieces', async () => {
    const pieces = await collect(
      provider().translate({
        text: 'good night',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      }),
    );
    expect(pieces).toEqual(['ja: ', 'good ', 'night']);
  });
});
