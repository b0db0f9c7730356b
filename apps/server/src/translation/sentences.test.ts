import { describe, expect, it } from 'vitest';
import { createSentenceSplitter, splitSentences } from './sentences.js';

describe('sentences', () => {
  it('splits English at . ! ? followed by a space, keeping closing quotes', () => {
    expect(splitSentences('Hello there. How are you? "Fine!" she said. Bye')).toEqual([
      'Hello there.',
      'How are you?',
      '"Fine!" she said.',
      'Bye',
    ]);
  });

  it('does not split numbers, abbreviations or initials', () => {
    expect(splitSentences('It costs 3.50 dollars, e.g. for Mr. Smith and J. R. Tolkien. Done.')).toEqual([
      'It costs 3.50 dollars, e.g. for Mr. Smith and J. R. Tolkien.',
      'Done.',
    ]);
    expect(splitSentences('We met in the U.S. last year.')).toEqual(['We met in the U.S. last year.']);
  });

  it('splits Japanese at 。！？ without spaces, keeping 」', () => {
    expect(splitSentences('こんにちは。元気ですか？「はい！」と言った。次')).toEqual([
      'こんにちは。',
      '元気ですか？',
      '「はい！」と言った。',
      '次',
    ]);
  });

  it('gives a sentence only once what follows it is in, piece by piece', () => {
    const splitter = createSentenceSplitter();
    expect(splitter.push('Hello the')).toEqual([]);
    expect(splitter.push('re.')).toEqual([]);
    expect(splitter.push(' How')).toEqual(['Hello there.']);
    expect(splitter.push(' are you?')).toEqual([]);
    expect(splitter.push('')).toEqual([]);
    expect(splitter.rest()).toBe('How are you?');
    const ja = createSentenceSplitter();
    expect(ja.push('はい。')).toEqual([]);
    expect(ja.push('いいえ')).toEqual(['はい。']);
  });
});
