import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, pageOffsets } from '../voice/testing/clips.js';
import { FakeProvider } from './fake-provider.js';
import { OpenAiProvider } from './openai-provider.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './testing/fake-openai-server.js';
import type { TranscriptUpdate } from './transcription-stream.js';
import { RescanCommitter, splitSentences } from './transcription-stream.js';

/*
 * Streaming transcription engines, fed a real Ogg/Opus clip page by page: OpenAI's Realtime API (a fake
 * Realtime WebSocket with the real event shapes, inside the test), its fallback to re-transcribing the
 * growing clip when the server has no Realtime API, and the fake provider's scripted deltas.
 */

/** The clip cut at page boundaries into pieces of `perPiece` pages. */
function pieces(bytes: Uint8Array, perPiece = 1): Uint8Array[] {
  const offsets = [...pageOffsets(bytes), bytes.length];
  const out: Uint8Array[] = [];
  for (let i = 0; i < offsets.length - 1; i += perPiece) {
    out.push(bytes.subarray(offsets[i]!, offsets[Math.min(i + perPiece, offsets.length - 1)]!));
  }
  return out;
}

const SCRIPT = 'Hello everyone. This message was spoken. Into the microphone.';

describe('streaming transcription', () => {
  let fake: FakeOpenAiServer;
  beforeAll(async () => {
    fake = await startFakeOpenAiServer();
  });
  afterAll(() => fake.close());

  const provider = () =>
    new OpenAiProvider({
      apiKey: 'test',
      baseURL: fake.baseURL,
      translationModel: 'gpt-test',
      ttsModel: 'tts-test',
      ttsVoice: 'alloy',
      transcriptionModel: 'gpt-4o-transcribe',
      rescanIntervalMs: 50,
    });

  it('openai: Realtime deltas arrive in order, sentences commit before the end, the final text is whole', async () => {
    fake.realtime.enabled = true;
    fake.realtime.transcript = SCRIPT;
    fake.realtime.events.length = 0;
    const engine = provider();
    expect(engine.streamingTranscription()).toBe('realtime');
    const updates: TranscriptUpdate[] = [];
    const stream = engine.startTranscription({ languageHint: 'en', onUpdate: (u) => updates.push(u) });
    expect(stream.mode).toBe('realtime');
    for (const piece of pieces(fixture('hello-en.opus'))) stream.push(piece);
    // the second sentence is committed while audio is still being appended (before finish)
    await expect.poll(() => updates.at(-1)?.committed ?? 0, { timeout: 5000 }).toBeGreaterThan(0);
    const beforeEnd = updates.at(-1)!;
    expect(beforeEnd.text.slice(0, beforeEnd.committed).trim()).toMatch(/^Hello everyone\./u);
    const final = await stream.finish();
    expect(final).toEqual({ text: SCRIPT, language: 'en' });
    // each update extends the one before (deltas in order), committed never shrinks
    for (let i = 1; i < updates.length; i += 1) {
      expect(updates[i]!.text.startsWith(updates[i - 1]!.text.trimEnd())).toBe(true);
      expect(updates[i]!.committed).toBeGreaterThanOrEqual(updates[i - 1]!.committed);
    }
    const types = fake.realtime.events.map((event) => event.type);
    expect(types[0]).toBe('transcription_session.update');
    expect(fake.realtime.events[0]).toMatchObject({
      session: {
        input_audio_format: 'pcm16',
        input_audio_transcription: { model: 'gpt-4o-transcribe', language: 'en' },
      },
    });
    expect(types).toContain('input_audio_buffer.append');
    expect(types.at(-1)).toBe('input_audio_buffer.commit');
  });

  it('openai: a server without the Realtime API gets the growing clip re-transcribed, nothing lost', async () => {
    fake.realtime.enabled = false;
    fake.transcription = { text: 'hello there. General Kenobi.', language: 'english' };
    const before = fake.requests.filter((r) => r.path === '/v1/audio/transcriptions').length;
    const engine = provider();
    const updates: TranscriptUpdate[] = [];
    const stream = engine.startTranscription({ languageHint: 'en', onUpdate: (u) => updates.push(u) });
    for (const piece of pieces(fixture('hello-en.opus'))) {
      stream.push(piece);
      await new Promise((resolve) => setTimeout(resolve, 80));
    }
    const final = await stream.finish();
    expect(final.text).toBe('hello there. General Kenobi.');
    const calls = fake.requests.filter((r) => r.path === '/v1/audio/transcriptions').slice(before);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    // the last call heard the whole clip
    expect((calls.at(-1)!.body.file as { size: number }).size).toBe(fixture('hello-en.opus').length);
    expect(updates.length).toBeGreaterThan(0);
    // and the provider now goes straight to re-transcription
    expect(engine.streamingTranscription()).toBe('rescan');
  });

  it('fake: scripted deltas follow the audio, committed sentences first', async () => {
    const engine = new FakeProvider({ deltaLatencyMs: 5, secondsPerWord: 0.3 });
    const updates: TranscriptUpdate[] = [];
    const stream = engine.startTranscription({ languageHint: 'en', onUpdate: (u) => updates.push(u) });
    for (const piece of pieces(fixture('hello-en.opus'))) stream.push(piece);
    const final = await stream.finish();
    expect(final).toEqual({
      language: 'en',
      text: 'Hello everyone, this message was spoken into the microphone.',
    });
    expect(updates.map((u) => u.text.split(' ').length)).toEqual(
      [...updates.keys()].map((i) => updates[i]!.text.split(' ').length).sort((a, b) => a - b),
    );
  });
});

describe('sentence commitment', () => {
  it('splits Latin and Japanese sentences', () => {
    expect(splitSentences('Hi there. How are you? Fine')).toEqual(['Hi there. ', 'How are you? ', 'Fine']);
    expect(splitSentences('こんにちは。元気ですか？はい')).toEqual(['こんにちは。', '元気ですか？', 'はい']);
  });

  it('a rescan commits a sentence once two hypotheses agree on it and more follows', () => {
    const committer = new RescanCommitter();
    expect(committer.next('Hello there. How').committed).toBe(0);
    const second = committer.next('Hello there. How are');
    expect(second.text.slice(0, second.committed)).toBe('Hello there. ');
    // a later hypothesis that rewrites the committed sentence does not change it
    const third = committer.next('Hallo there. How are you?');
    expect(third.text).toBe('Hello there. How are you?');
    expect(committer.final('Hallo there. How are you doing?')).toBe('Hello there. How are you doing?');
  });
});
