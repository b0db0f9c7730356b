import type { ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { visibleTranslations } from './message-display';
import { message, onlyMessage, run } from './testing';

/* A message's frames in the chat state: replays, translations streamed or failed, corrections, notes. */

describe('message frames', () => {
  it('keeps a replay in chronological order with stored translations and notes', () => {
    const state = run([
      message(1000, { translations: { ja: 'こんにちは' }, note: '"a greeting"' }),
      message(3000),
      message(2000),
    ]);
    expect(state.items.map((item) => item.id)).toEqual([1000, 2000, 3000]);
    expect(onlyMessage(state).translations).toEqual({ ja: 'こんにちは' });
    expect(onlyMessage(state).note).toBe('"a greeting"');
  });

  it('drops the chunks of a translation that failed for good, and keeps a complete one', () => {
    let state = run([
      message(1000, { translations: { fr: 'bonjour' } }),
      { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'ja', chunk: 'こん' },
      { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'de', chunk: 'Hal' },
    ]);
    state = run([{ type: 'translationFailed', originalTimestamp: 1000, targetLanguage: 'ja' }], state);
    expect(onlyMessage(state).partial).toEqual({ de: 'Hal' });
    expect(onlyMessage(state).failed).toEqual(['ja']);
    expect(visibleTranslations(onlyMessage(state), 'ja').map((each) => each.language)).toEqual(['de', 'fr']);
    // nothing streaming in that language (or no such message): the state is kept as it is
    for (const frame of [
      { type: 'translationFailed', originalTimestamp: 1000, targetLanguage: 'fr' },
      { type: 'translationFailed', originalTimestamp: 1000, targetLanguage: 'ja' },
      { type: 'translationFailed', originalTimestamp: 999, targetLanguage: 'de' },
    ] as const)
      expect(run([frame], state)).toBe(state);
    expect(onlyMessage(state).translations).toEqual({ fr: 'bonjour' });
  });

  it('keeps a failed language as a mark, from history or live, until a translation into it lands', () => {
    let state = run([{ ...message(1000), failedTranslations: ['ja'] }]);
    expect(onlyMessage(state).failed).toEqual(['ja']);
    state = run([{ type: 'translationFailed', originalTimestamp: 1000, targetLanguage: 'de' }], state);
    expect(onlyMessage(state).failed).toEqual(['ja', 'de']);
    const done = { type: 'translationComplete', originalTimestamp: 1000, fullText: 'x' } as const;
    state = run([{ ...done, targetLanguage: 'ja' }], state);
    expect(onlyMessage(state).failed).toEqual(['de']);
    state = run([{ ...done, targetLanguage: 'de' }], state);
    expect(onlyMessage(state).failed).toBeUndefined();
  });

  it('appends only a chunk that continues what it shows, when the chunk says where it starts (0136)', () => {
    const chunk = (chunk: string, at?: number): ServerFrame => ({
      type: 'translationChunk',
      originalTimestamp: 1000,
      targetLanguage: 'ja',
      chunk,
      ...(at !== undefined ? { at } : {}),
    });
    // joined mid-stream: the first chunk it sees starts at 5, so nothing shows until the complete text
    let state = run([message(1000), chunk('red ', 5), chunk('book', 9)]);
    expect(onlyMessage(state).partial).toEqual({});
    state = run(
      [
        {
          type: 'translationComplete',
          originalTimestamp: 1000,
          targetLanguage: 'ja',
          fullText: 'the red book',
        },
      ],
      state,
    );
    expect(onlyMessage(state).translations).toEqual({ ja: 'the red book' });

    // from the start: each chunk continues the last; one sent twice, or one after a gap, is not appended
    state = run([message(1000), chunk('the ', 0), chunk('red ', 4), chunk('red ', 4), chunk('x', 20)]);
    expect(onlyMessage(state).partial).toEqual({ ja: 'the red ' });
    // a server that does not say where (a voice clip's tail continues its caption) is appended as before
    state = run([chunk('book')], state);
    expect(onlyMessage(state).partial).toEqual({ ja: 'the red book' });
  });

  it('applies a correction: new text, edited mark, old translations and hint void, new ones follow', () => {
    let state = run([
      message(1000, { translations: { ja: '古い' }, note: 'old note' }),
      { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'fr', chunk: 'vieux' },
      { type: 'messageEdited', id: 1000, message: 'hello fixed', editedAt: 5000, offset: 9 },
    ]);
    expect(onlyMessage(state)).toMatchObject({
      message: 'hello fixed',
      editedAt: 5000,
      translations: {},
      partial: {},
      note: undefined,
    });
    state = run(
      [
        {
          type: 'translationChunk',
          originalTimestamp: 1000,
          targetLanguage: 'ja',
          chunk: '新',
          revision: 5000,
        },
        { type: 'translationComplete', originalTimestamp: 1000, targetLanguage: 'ja', fullText: '新しい' },
        // an older correction replayed late does not undo a newer one
        { type: 'messageEdited', id: 1000, message: 'hello', editedAt: 4000 },
      ],
      state,
    );
    expect(onlyMessage(state)).toMatchObject({ message: 'hello fixed', translations: { ja: '新しい' } });
    // a stored copy with another text (the replay after a correction) replaces the old one entirely
    state = run([message(1000, { message: 'third', editedAt: 6000, translations: { ja: '三' } })], state);
    expect(onlyMessage(state)).toMatchObject({
      message: 'third',
      editedAt: 6000,
      translations: { ja: '三' },
    });
  });

  it('drops a chunk of a text older than the correction it shows', () => {
    const chunk = (text: string, at: number, revision?: number, id = 1000): ServerFrame => ({
      type: 'translationChunk',
      originalTimestamp: id,
      targetLanguage: 'ja',
      chunk: text,
      at,
      ...(revision !== undefined ? { revision } : {}),
    });
    let state = run([
      message(1000),
      chunk('古い', 0),
      { type: 'messageEdited', id: 1000, message: 'hello fixed', editedAt: 5000, offset: 9 },
      // the first text's stream, and an earlier correction's, late: each would start the empty partial
      chunk('古い', 0),
      chunk('前の', 0, 4000),
    ]);
    expect(onlyMessage(state).partial).toEqual({});
    state = run([chunk('新しい', 0, 5000), chunk('訳', 3, 5000)], state);
    expect(onlyMessage(state).partial).toEqual({ ja: '新しい訳' });
    // a stored copy that says it was corrected guards the same way
    state = run([message(2000, { editedAt: 7000 }), chunk('古い', 0, undefined, 2000)]);
    expect(state.items.find((item) => item.id === 2000)).toMatchObject({ partial: {} });
  });

  it('drops a complete translation of a text older than the correction it shows', () => {
    const complete = (fullText: string, revision?: number, id = 1000): ServerFrame => ({
      type: 'translationComplete',
      originalTimestamp: id,
      targetLanguage: 'ja',
      fullText,
      ...(revision !== undefined ? { revision } : {}),
    });
    let state = run([
      message(1000),
      { type: 'messageEdited', id: 1000, message: 'hello fixed', editedAt: 5000, offset: 9 },
      complete('最初の訳', 0),
      complete('前の訳', 4000),
    ]);
    expect(onlyMessage(state).translations).toEqual({});
    state = run([complete('新しい訳', 5000)], state);
    expect(onlyMessage(state).translations).toEqual({ ja: '新しい訳' });
    // a server that names no revision is taken at its word, as before
    state = run([message(2000, { editedAt: 7000 }), complete('訳', undefined, 2000)]);
    expect(state.items.find((item) => item.id === 2000)).toMatchObject({ translations: { ja: '訳' } });
  });

  it('does not duplicate a message replayed twice', () => {
    const state = run([message(1000), message(1000, { translations: { ja: 'やあ' } })]);
    expect(state.items).toHaveLength(1);
    expect(onlyMessage(state).translations.ja).toBe('やあ');
  });

  it('appends chunks per target language, then the full text replaces them', () => {
    let state = run([
      message(1000),
      { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'ja', chunk: 'こん' },
      { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'fr', chunk: 'Bon' },
      { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'ja', chunk: 'にち' },
    ]);
    expect(onlyMessage(state).partial).toEqual({ ja: 'こんにち', fr: 'Bon' });
    expect(visibleTranslations(onlyMessage(state))).toEqual([
      { language: 'fr', text: 'Bon', done: false },
      { language: 'ja', text: 'こんにち', done: false },
    ]);

    state = run(
      [
        {
          type: 'translationComplete',
          originalTimestamp: 1000,
          targetLanguage: 'ja',
          fullText: 'こんにちは',
        },
        // a late chunk must not be glued onto the finished text
        { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'ja', chunk: '!!' },
      ],
      state,
    );
    expect(onlyMessage(state).translations).toEqual({ ja: 'こんにちは' });
    expect(onlyMessage(state).partial).toEqual({ fr: 'Bon' });
  });

  it('attaches a note that arrives later', () => {
    const state = run([message(1000), { type: 'noteComplete', originalTimestamp: 1000, note: '「挨拶」' }]);
    expect(onlyMessage(state).note).toBe('「挨拶」');
  });

  it('ignores frames for messages it does not hold', () => {
    const state = run([message(1000)]);
    expect(run([{ type: 'noteComplete', originalTimestamp: 5, note: 'x' }], state)).toBe(state);
  });
});
