import { describe, expect, it } from 'vitest';
import { stripQuotes, visibleTranslations } from './message-display';
import { message, onlyMessage, run } from './testing';

/* How one message shows: which translations and in what order, and its note without quotes. */

describe('message display', () => {
  it('puts the listener’s language first when the room translates into more than two', () => {
    const state = run([message(1000, { translations: { ja: 'や', fr: 'salut', de: 'hallo' } })]);
    expect(visibleTranslations(onlyMessage(state), 'fr').map((t) => t.language)).toEqual(['fr', 'de', 'ja']);
  });

  it('never lists the message’s own language as a translation', () => {
    const state = run([message(1000, { language: 'en', translations: { en: 'hello', ja: 'こんにちは' } })]);
    expect(visibleTranslations(onlyMessage(state)).map((t) => t.language)).toEqual(['ja']);
  });

  it('strips surrounding quote characters from notes', () => {
    expect(stripQuotes('"a casual greeting"')).toBe('a casual greeting');
    expect(stripQuotes(' 「丁寧な挨拶」 ')).toBe('丁寧な挨拶');
    expect(stripQuotes("'it's fine'")).toBe("it's fine");
    expect(stripQuotes('no quotes')).toBe('no quotes');
  });
});
