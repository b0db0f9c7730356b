import { describe, expect, it, vi } from 'vitest';
import { readWavInfo } from '../audio/index.js';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * A message's translation streamed to the room, completed and stored, its hint when the engine finds
 * nuance, and its speech for the other languages' listeners, through the real `openai` SDK.
 */

const t = openAiServiceTest();

describe('the translation service with the openai provider: what a message gets', () => {
  it('streams the translation in order to the room, completes, stores it and sends the request with context', async () => {
    const svc = t.start();
    t.store.add(
      'ROOM1',
      t.message('My sister Hana is visiting.', { username: 'bob', displayUsername: 'CalmPanda' }),
    );
    const m = t.message('She loves sushi');
    t.post(svc, 'ROOM1', m);

    await vi.waitFor(() => expect(t.store.translations).toHaveLength(1));
    const chunks = t.output.framesOf('translationChunk', 'ROOM1').filter((f) => f.originalTimestamp === m.id);
    expect(chunks.map((c) => c.chunk)).toEqual(['ja: ', 'She ', 'loves ', 'sushi']);
    // each says where it starts: the length of the ones before it (decision 0136)
    expect(chunks.map((c) => c.at)).toEqual([0, 4, 8, 14]);
    expect(chunks.every((c) => c.targetLanguage === 'ja')).toBe(true);
    const complete = t.output.framesOf('translationComplete', 'ROOM1');
    expect(complete).toEqual([
      {
        type: 'translationComplete',
        originalTimestamp: m.id,
        targetLanguage: 'ja',
        fullText: 'ja: She loves sushi',
        // the message's first text: no correction has been made
        revision: 0,
      },
    ]);
    // chunks strictly before the completion
    const types = t.output.frames.map((f) => f.frame.type).filter((type) => type.startsWith('translation'));
    expect(types.lastIndexOf('translationChunk')).toBeLessThan(types.indexOf('translationComplete'));
    expect(t.store.translations).toEqual([
      { roomId: 'ROOM1', messageId: m.id, language: 'ja', text: 'ja: She loves sushi' },
    ]);

    const [request] = t.translationRequests();
    expect(request?.body.model).toBe('test-translate-model');
    expect(request?.body.stream).toBe(true);
    expect(request?.headers.authorization).toBe('Bearer test-key');
    const messages = request?.body.messages as Array<{ role: string; content: string }>;
    const all = messages.map((x) => x.content).join('\n');
    expect(all).toContain('Japanese (ja)');
    expect(all).toContain('CalmPanda [en]: My sister Hana is visiting.');
    expect(messages.at(-1)?.content.endsWith('She loves sushi')).toBe(true);
  });

  it('sends and stores a hint when the model finds nuance, in the listener language, after the translation', async () => {
    const svc = t.start({ speech: false });
    const m = t.message('Break a leg tonight, that is an idiom');
    t.post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(t.store.notes).toHaveLength(1));
    expect(t.store.notes[0]).toEqual({
      roomId: 'ROOM1',
      messageId: m.id,
      note: 'This uses an idiom: it means "good luck".',
    });
    const noteFrames = t.output.framesOf('noteComplete', 'ROOM1');
    expect(noteFrames).toEqual([
      { type: 'noteComplete', originalTimestamp: m.id, note: t.store.notes[0]?.note },
    ]);
    const order = t.output.frames.map((f) => f.frame.type);
    expect(order.indexOf('noteComplete')).toBeGreaterThan(order.indexOf('translationComplete'));
    const [noteRequest] = t.noteRequests();
    expect(noteRequest?.body.stream).toBe(true);
    const system = (noteRequest?.body.messages as Array<{ content: string }>)[0]?.content ?? '';
    expect(system).toContain('written in Japanese (ja)');
  });

  it('sends no hint when the model answers NONE', async () => {
    const svc = t.start({ speech: false });
    t.post(svc, 'ROOM1', t.message('See you at noon'));
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(1));
    await vi.waitFor(() => expect(t.noteRequests()).toHaveLength(1));
    await svc.close();
    expect(t.store.notes).toEqual([]);
    expect(t.output.framesOf('noteComplete')).toEqual([]);
  });

  it('synthesises the translation once per target language from PCM and sends it to that language, never the author', async () => {
    const svc = t.start({ notes: false }, ['en', 'ja', 'fr']);
    const m = t.message('Good morning everyone');
    t.post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(t.output.audio).toHaveLength(2));
    const byLanguage = Object.fromEntries(t.output.audio.map((a) => [a.language, a]));
    expect(Object.keys(byLanguage).sort()).toEqual(['fr', 'ja']);
    for (const sent of t.output.audio) {
      expect(sent.roomId).toBe('ROOM1');
      expect(sent.exceptUsername).toBe('alice');
      expect(readWavInfo(sent.wav)?.sampleRate).toBe(24_000);
    }
    const speech = t.server.requests.filter((r) => r.path === '/v1/audio/speech');
    expect(speech).toHaveLength(2);
    expect(speech.map((r) => r.body.input).sort()).toEqual([
      'fr: Good morning everyone',
      'ja: Good morning everyone',
    ]);
    for (const r of speech) {
      expect(r.body).toMatchObject({ model: 'test-tts-model', voice: 'test-voice', response_format: 'pcm' });
    }
  });
});
