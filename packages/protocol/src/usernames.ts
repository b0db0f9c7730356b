import { SYSTEM_USERNAME } from './constants.js';
import { isGeneratedName } from './names.js';

/*
 * Chosen usernames (docs/product.md#rules). One set of rules for the profile form and the server, so the
 * form says exactly what the server would say. The server adds the one rule the form cannot know: taken.
 */

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 24;
export const FULL_NAME_MAX_LENGTH = 80;

/** The error codes of the username rules; the web translates them, the server sends the English text. */
export const UsernameError = {
  InvalidLength: 'ErrInvalidUsernameLength',
  AlreadyTaken: 'ErrUsernameAlreadyTaken',
  GuestPrefix: 'ErrUsernameGuestPrefix',
  Reserved: 'ErrUsernameReserved',
  Generated: 'ErrUsernameGenerated',
  InvalidCharacters: 'ErrUsernameInvalidCharacters',
} as const;
export type UsernameErrorCode = (typeof UsernameError)[keyof typeof UsernameError];

/** The English text of each rule; the product's fixed wording where it has one (docs/product.md). */
export const usernameErrorText: Record<UsernameErrorCode, string> = {
  ErrInvalidUsernameLength: 'Username is too short, please try again.',
  ErrUsernameAlreadyTaken: 'The given username is taken, please try another one.',
  ErrUsernameGuestPrefix: 'Username cannot start with g-',
  ErrUsernameReserved:
    'The username you entered is not available or reserved. Please choose a different one.',
  ErrUsernameGenerated: 'The username {name} is a system generated one. Please choose a different one.',
  ErrUsernameInvalidCharacters: 'Usernames may only use letters, numbers, dots, hyphens and underscores.',
};
/** Too long is the same error code as too short, with its own words. */
export const USERNAME_TOO_LONG_TEXT = `Username is too long (at most ${USERNAME_MAX_LENGTH} characters), please try again.`;

export interface UsernameProblem {
  code: UsernameErrorCode;
  /** The English message, placeholders filled. */
  message: string;
  /** For ErrInvalidUsernameLength: which way. */
  tooLong?: boolean;
}

/*
 * Reserved: the mascot's names, the product's name and names that would pass for staff. Compared after
 * lower-casing and dropping separators and trailing digits, so `Admin_01`, `x.talk` and `_XTalkChan`
 * are refused like `admin`, `xtalk` and `_xtalkchan`.
 */
const RESERVED = new Set([
  SYSTEM_USERNAME.replace(/[_.-]/g, ''),
  'xtalk',
  'xtalkchan',
  'xtalkteam',
  'xtalksupport',
  'xtalkofficial',
  'admin',
  'admins',
  'administrator',
  'administrators',
  'sysadmin',
  'superuser',
  'superadmin',
  'root',
  'system',
  'sys',
  'moderator',
  'moderators',
  'mod',
  'mods',
  'staff',
  'support',
  'helpdesk',
  'help',
  'official',
  'owner',
  'operator',
  'security',
  'bot',
  'guest',
  'anonymous',
  'null',
  'undefined',
  'me',
  'you',
  'everyone',
  'here',
]);

function reservedKey(name: string): string {
  return name.toLowerCase().replace(/[_.-]/g, '').replace(/\d+$/, '');
}

/** Letters and digits of any script, plus . _ - ; no spaces, so a name reads as one handle. */
const USERNAME_PATTERN = /^[\p{L}\p{N}._-]+$/u;

/** Whether a name is reserved (the mascot, the product, staff-like names). */
export function isReservedUsername(name: string): boolean {
  const key = reservedKey(name.trim());
  return RESERVED.has(key) || /^(admin|moderator|xtalk)/.test(key);
}

/** The trimmed form the server stores. */
export function normalizeUsername(name: string): string {
  return name.normalize('NFC').trim();
}

/**
 * Checks a chosen username against every rule that needs no database; `undefined` means acceptable.
 * Order: length, then g-, then characters, then reserved, then generated, so the most useful message wins.
 */
export function checkUsername(raw: string): UsernameProblem | undefined {
  const name = normalizeUsername(raw);
  const length = [...name].length;
  if (length < USERNAME_MIN_LENGTH)
    return { code: UsernameError.InvalidLength, message: usernameErrorText.ErrInvalidUsernameLength };
  if (length > USERNAME_MAX_LENGTH)
    return { code: UsernameError.InvalidLength, message: USERNAME_TOO_LONG_TEXT, tooLong: true };
  if (/^g-/i.test(name))
    return { code: UsernameError.GuestPrefix, message: usernameErrorText.ErrUsernameGuestPrefix };
  if (!USERNAME_PATTERN.test(name))
    return {
      code: UsernameError.InvalidCharacters,
      message: usernameErrorText.ErrUsernameInvalidCharacters,
    };
  if (isReservedUsername(name))
    return { code: UsernameError.Reserved, message: usernameErrorText.ErrUsernameReserved };
  if (isGeneratedName(name))
    return {
      code: UsernameError.Generated,
      message: usernameErrorText.ErrUsernameGenerated.replace('{name}', name),
    };
  return undefined;
}

/** The full name as stored: trimmed, inner whitespace collapsed, control characters refused. */
export function checkFullName(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value))
    return { ok: false, message: 'Full name contains characters that are not allowed.' };
  if ([...value].length > FULL_NAME_MAX_LENGTH)
    return { ok: false, message: `Full name is too long (at most ${FULL_NAME_MAX_LENGTH} characters).` };
  return { ok: true, value };
}
