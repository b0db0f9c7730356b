import { describe, expect, it } from 'vitest';
import { parseClientFrame } from './client-frames.js';
import { chatTextProblem, textProblems } from './text-rules.js';

const chat = (message: string) => JSON.stringify({ type: 'chat', language: 'en', message, room: 'R' });

describe('chat text rules', () => {
  it.each([
    ['a NUL', 'hi\u0000there', textProblems.control],
    ['a bell', 'ding\u0007', textProblems.control],
    ['a lone high surrogate', 'broken \uD83D here', textProblems.surrogate],
    ['a lone low surrogate at the start', '\uDE00 broken', textProblems.surrogate],
    ['only zero-width spaces', '\u200B\u200B\u200B', textProblems.empty],
    ['only a BOM, a ZWJ and bidi marks', '\uFEFF\u200D\u200E\u200F', textProblems.empty],
    ['only ideographic spaces and a Hangul filler', '\u3000\u3164 ', textProblems.empty],
    ['only variation selectors', '\uFE0F\uFE0E', textProblems.empty],
  ])('refuses a message with %s as message_invalid', (_name, text, problem) => {
    expect(chatTextProblem(text)).toBe(problem);
    expect(parseClientFrame(chat(text))).toEqual({
      ok: false,
      code: 'message_invalid',
      message: `message: ${problem}`,
    });
  });

  it.each([
    ['an emoji (a surrogate pair)', 'ok 😀'],
    ['tabs and newlines', 'line one\n\tline two\r\n'],
    ['a family emoji joined by ZWJ', '👨‍👩‍👧'],
    ['Arabic with a bidi isolate', 'مرحبا \u2067abc\u2069'],
    ['Japanese', 'こんにちは'],
  ])('accepts %s', (_name, text) => {
    expect(chatTextProblem(text)).toBeUndefined();
    expect(parseClientFrame(chat(text))).toMatchObject({ ok: true });
  });

  it('sees a lone surrogate that arrives as a JSON escape', () => {
    expect(parseClientFrame('{"type":"chat","language":"en","message":"x\\ud800","room":"R"}')).toEqual({
      ok: false,
      code: 'message_invalid',
      message: `message: ${textProblems.surrogate}`,
    });
  });
});
