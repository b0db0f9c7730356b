import {
  ERROR_CODES,
  HTTP_ERROR_CODES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  UI_LANGUAGES,
} from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { frameErrorText, httpErrorText, requestErrorText } from './error-text';

const japanese = /[\u3040-\u30ff\u4e00-\u9faf]/;

describe('server error codes, worded by the client', () => {
  it.each(UI_LANGUAGES)('words every frame error code in %s', (language) => {
    for (const code of ERROR_CODES) {
      const text = frameErrorText(language, code, 'detail');
      expect(text, code).not.toMatch(/^errors\./);
      expect(text.trim(), code).not.toBe('');
      expect(japanese.test(text), `${language} ${code}: ${text}`).toBe(language === 'ja');
    }
  });

  it.each(UI_LANGUAGES)('words every HTTP error code in %s', (language) => {
    for (const code of HTTP_ERROR_CODES) {
      const text = httpErrorText(language, code);
      expect(text, code).not.toMatch(/^errors\./);
      expect(text.trim(), code).not.toBe('');
      expect(japanese.test(text), `${language} ${code}: ${text}`).toBe(language === 'ja');
    }
  });

  it('gives different codes different words', () => {
    for (const language of UI_LANGUAGES) {
      const texts = HTTP_ERROR_CODES.filter((c) => c !== 'internal').map((c) => httpErrorText(language, c));
      expect(new Set(texts).size).toBe(texts.length);
    }
  });

  it('words a request error by its code, not by the English message of the server', () => {
    const missing = new ApiError(
      404,
      {
        statusCode: 404,
        error: 'Not Found',
        message: 'Room ZZZZZZZ does not exist.',
        code: 'room_not_found',
      },
      'Room ZZZZZZZ does not exist.',
    );
    expect(requestErrorText('ja', missing)).toBe('そのルームは存在しません。');
    expect(requestErrorText('en', missing)).toBe('That room does not exist.');
    // an older server without codes: the status decides
    expect(requestErrorText('ja', new ApiError(401, { message: 'x' }, 'x'))).toBe(
      httpErrorText('ja', 'unauthorized'),
    );
    expect(requestErrorText('en', new TypeError('Failed to fetch'))).toBe('Please try again.');
  });

  it('words the email-account refusals with the password rule of the protocol, in both languages', () => {
    expect(httpErrorText('en', 'password_too_short')).toBe(
      `Passwords need at least ${PASSWORD_MIN_LENGTH} characters.`,
    );
    expect(httpErrorText('ja', 'password_too_short')).toBe(
      `パスワードは${PASSWORD_MIN_LENGTH}文字以上にしてください。`,
    );
    expect(httpErrorText('ja', 'password_too_long')).toContain(String(PASSWORD_MAX_LENGTH));
    for (const language of UI_LANGUAGES) {
      for (const code of HTTP_ERROR_CODES) expect(httpErrorText(language, code), code).not.toMatch(/[{}]/);
    }
    const expired = new ApiError(
      400,
      { statusCode: 400, message: 'This link is invalid, expired or already used.', code: 'invalid_link' },
      'x',
    );
    expect(requestErrorText('ja', expired)).toBe(
      'このリンクは無効か、期限切れか、すでに使用されています。新しいリンクを請求してください。',
    );
  });

  it('keeps the detail of a notice (engine status) inside the worded frame', () => {
    expect(frameErrorText('ja', 'notice', 'Translation loading 40%')).toBe(
      'サーバーからのお知らせ: Translation loading 40%',
    );
  });
});
