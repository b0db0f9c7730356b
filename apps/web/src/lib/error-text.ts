import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type ErrorCode,
  type HttpErrorCode,
  type UiLanguage,
} from '@xtalk/protocol';
import { ApiError } from './api-client';
import { translate, type MessageKey } from './i18n';

/*
 * Server errors are codes (an `error` frame's `code`, an HTTP body's `code`); the words are the client's,
 * in the interface language. The server's English `message` is only a fallback for a
 * failure that has no answer at all (network errors).
 */

export function frameErrorText(language: UiLanguage, code: ErrorCode, serverMessage = ''): string {
  return translate(language, `errors.frame.${code}` satisfies MessageKey, { message: serverMessage });
}

export function httpErrorText(language: UiLanguage, code: HttpErrorCode): string {
  // the password rules' numbers come from the protocol, so the words follow them
  return translate(language, `errors.http.${code}` satisfies MessageKey, {
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
  });
}

/** Any failure of a request, worded: coded HTTP errors by their code, anything else as it says. */
export function requestErrorText(language: UiLanguage, error: unknown): string {
  if (error instanceof ApiError) return httpErrorText(language, error.code);
  return translate(language, 'room.tryAgain');
}
