import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiProvider } from './openai-provider.js';
import type { FakeOpenAiServer } from './testing/fake-openai-server.js';
import { startFakeOpenAiServer } from './testing/fake-openai-server.js';
import { isWav, readWavInfo, sineWav } from '../audio/index.js';
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

  it('asks for raw PCM and returns it as a 24 kHz WAV; a failing server is an error', async () => {
    server.speechSeconds = 0.5;
    const wav = await provider().synthesize({ text: 'hello', language: 'en' });
    expect(server.requests.at(-1)?.body).toMatchObject({ input: 'hello', response_format: 'pcm' });
    expect(readWavInfo(wav)).toMatchObject({ sampleRate: 24_000, channels: 1 });
    expect(readWavInfo(wav)?.durationSeconds).toBeCloseTo(0.5, 2);
    server.speechStatus = 500;
    await expect(provider().synthesize({ text: 'hello', language: 'en' })).rejects.toMatchObject({
      status: 500,
    });
  });

  it('asks for WAV from then on when the server does not offer PCM', async () => {
    server.speechFormats = ['wav'];
    const engine = provider();
    const first = await engine.synthesize({ text: 'one', language: 'en' });
    const second = await engine.synthesize({ text: 'two', language: 'en' });
    expect(isWav(first) && isWav(second)).toBe(true);
    const formats = server.requests.map((r) => `${String(r.body.input)}:${String(r.body.response_format)}`);
    expect(formats).toEqual(['one:pcm', 'one:wav', 'two:wav']);
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
