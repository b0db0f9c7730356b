import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { initialChatState, type ChatMessage, type ChatState, type ChatSystemEvent } from './chat-items';
import { joinNames, toDisplayItems } from './display-items';
import { stripQuotes, visibleTranslations } from './message-display';
import { chatReducer } from './messages-reducer';

const message = (id: number, overrides: Partial<MessageFrame> = {}): MessageFrame => ({
  type: 'message',
  id,
  username: 'alice',
  displayUsername: 'BraveOtter',
  message: `hello ${id}`,
  language: 'en',
  timestamp: id,
  translations: {},
  isTutorial: false,
  ...overrides,
});

const run = (frames: ServerFrame[], state: ChatState = initialChatState) =>
  frames.reduce((s, frame) => chatReducer(s, { type: 'frame', frame }), state);

/** The items that name a person (messages and JOIN/LEAVE), not a hot room's counts. */
const named = (state: ChatState) =>
  state.items.filter((item): item is ChatMessage | ChatSystemEvent => item.kind !== 'members');

const onlyMessage = (state: ChatState) => state.items[0] as ChatMessage;

describe('chatReducer', () => {
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
        { type: 'translationChunk', originalTimestamp: 1000, targetLanguage: 'ja', chunk: '新' },
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

  it('puts the listener’s language first when the room translates into more than two', () => {
    const state = run([message(1000, { translations: { ja: 'や', fr: 'salut', de: 'hallo' } })]);
    expect(visibleTranslations(onlyMessage(state), 'fr').map((t) => t.language)).toEqual(['fr', 'de', 'ja']);
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

  it('never lists the message’s own language as a translation', () => {
    const state = run([message(1000, { language: 'en', translations: { en: 'hello', ja: 'こんにちは' } })]);
    expect(visibleTranslations(onlyMessage(state)).map((t) => t.language)).toEqual(['ja']);
  });

  it('attaches a note that arrives later', () => {
    const state = run([message(1000), { type: 'noteComplete', originalTimestamp: 1000, note: '「挨拶」' }]);
    expect(onlyMessage(state).note).toBe('「挨拶」');
  });

  it('starts over on RESYNC: the recent window that follows replaces the list', () => {
    const held = run([message(1), message(2)]);
    const resync: ServerFrame = { type: 'system', message: 'RESYNC', timestamp: 3, epoch: 'e', offset: 9 };
    const state = chatReducer(held, { type: 'frame', frame: resync });
    expect(state.items).toEqual([]);
  });

  it('ignores frames for messages it does not hold', () => {
    const state = run([message(1000)]);
    expect(run([{ type: 'noteComplete', originalTimestamp: 5, note: 'x' }], state)).toBe(state);
  });

  it('renames every message and pill of a user on usernameUpdate', () => {
    const state = run([
      { type: 'system', message: 'JOIN', timestamp: 500, username: 'alice', displayUsername: 'BraveOtter' },
      message(1000),
      message(2000, { username: 'bob', displayUsername: 'CalmPanda' }),
      {
        type: 'usernameUpdate',
        username: 'alice',
        displayUsername: 'Alice',
        oldDisplayUsername: 'BraveOtter',
      },
    ]);
    expect(named(state).map((item) => item.displayUsername)).toEqual(['Alice', 'Alice', 'CalmPanda']);
  });

  it('renames items stored under the old username (a new username, found by the old display name)', () => {
    const state = run([
      message(1000, { username: 'u-0123456789ab', displayUsername: 'BraveOtter' }),
      message(2000, { username: 'bob', displayUsername: 'CalmPanda' }),
      {
        type: 'usernameUpdate',
        username: 'alice_new',
        displayUsername: 'alice_new',
        oldDisplayUsername: 'BraveOtter',
      },
    ]);
    expect(named(state).map((item) => [item.username, item.displayUsername])).toEqual([
      ['alice_new', 'alice_new'],
      ['bob', 'CalmPanda'],
    ]);
  });

  it('resets to an empty list for a new session', () => {
    expect(chatReducer(run([message(1)]), { type: 'reset' }).items).toEqual([]);
  });

  it('ignores READY, BALANCE and error frames', () => {
    const state = run([message(1)]);
    expect(run([{ type: 'system', message: 'READY', timestamp: 2, roomId: 'ABC2345' }], state)).toBe(state);
    expect(run([{ type: 'error', code: 'notice', message: 'translation unavailable' }], state)).toBe(state);
  });
});

describe('toDisplayItems', () => {
  it('groups consecutive JOINs (and LEAVEs) and lists newest first', () => {
    const state = run([
      { type: 'system', message: 'JOIN', timestamp: 1, username: 'a', displayUsername: 'A' },
      { type: 'system', message: 'JOIN', timestamp: 2, username: 'b', displayUsername: 'B' },
      message(3),
      { type: 'system', message: 'LEAVE', timestamp: 4, username: 'a', displayUsername: 'A' },
      { type: 'system', message: 'JOIN', timestamp: 5, username: 'c', displayUsername: 'C' },
    ]);
    const items = toDisplayItems(state.items);
    expect(
      items.map((item) => (item.kind === 'system' ? `${item.event}:${item.names.join('+')}` : 'msg')),
    ).toEqual(['JOIN:C', 'LEAVE:A', 'msg', 'JOIN:A+B']);
  });

  it('reads a coalesced JOIN listing several people, and leaves the reader out', () => {
    const state = run([
      { type: 'system', message: 'JOIN', timestamp: 1, username: 'a', displayUsername: 'A' },
      {
        type: 'system',
        message: 'JOIN',
        timestamp: 2,
        username: 'b',
        displayUsername: 'B',
        usernames: ['b', 'me', 'c'],
        displayUsernames: ['B', 'Me', 'C'],
      },
    ]);
    expect(state.items.map((item) => (item.kind === 'system' ? item.displayUsername : 'msg'))).toEqual([
      'A',
      'B',
      'Me',
      'C',
    ]);
    const items = toDisplayItems(state.items, 'me');
    expect(items.map((item) => (item.kind === 'system' ? item.names.join('+') : 'msg'))).toEqual(['A+B+C']);
  });
});

describe('helpers', () => {
  it('joins names the way the pill reads', () => {
    expect(joinNames(['A'], ' and ')).toBe('A');
    expect(joinNames(['A', 'B'], ' and ')).toBe('A and B');
    expect(joinNames(['A', 'B', 'C'], ' and ')).toBe('A, B and C');
  });

  it('strips surrounding quote characters from notes', () => {
    expect(stripQuotes('"a casual greeting"')).toBe('a casual greeting');
    expect(stripQuotes(' 「丁寧な挨拶」 ')).toBe('丁寧な挨拶');
    expect(stripQuotes("'it's fine'")).toBe("it's fine");
    expect(stripQuotes('no quotes')).toBe('no quotes');
  });
});
