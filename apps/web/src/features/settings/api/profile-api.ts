import {
  ApiPath,
  UsernameError,
  checkUsername,
  updateUserResponseSchema,
  type UpdateUserBody,
  type User,
  type UsernameErrorCode,
  type UsernameProblem,
} from '@xtalk/protocol';
import { ApiError, request } from '#web/lib/api-client';
import type { MessageKey, Params } from '#web/lib/i18n';

/** PATCH /users: the username (`name`) and the full name, in one call. */
export async function updateProfile(token: string, body: UpdateUserBody): Promise<User> {
  const response = await request<unknown>('PATCH', ApiPath.users, { token, body });
  return updateUserResponseSchema.parse(response).user;
}

const codeKeys: Record<UsernameErrorCode, MessageKey> = {
  ErrInvalidUsernameLength: 'profile.error.tooShort',
  ErrUsernameAlreadyTaken: 'profile.error.taken',
  ErrUsernameGuestPrefix: 'profile.error.guestPrefix',
  ErrUsernameReserved: 'profile.error.reserved',
  ErrUsernameGenerated: 'profile.error.generated',
  ErrUsernameInvalidCharacters: 'profile.error.characters',
};

export interface FieldError {
  key: MessageKey;
  params?: Params;
}

function isUsernameCode(code: unknown): code is UsernameErrorCode {
  return typeof code === 'string' && (Object.values(UsernameError) as string[]).includes(code);
}

/** The message key of a username rule, so the form says it in the interface language. */
export function usernameProblemKey(
  problem: Pick<UsernameProblem, 'code' | 'tooLong'>,
  name: string,
): FieldError {
  if (problem.code === UsernameError.InvalidLength && problem.tooLong)
    return { key: 'profile.error.tooLong' };
  return { key: codeKeys[problem.code], params: { name } };
}

/** Checks a new username before sending it; the server applies the same rules (and "taken"). */
export function checkUsernameField(name: string, current: string): FieldError | undefined {
  if (name.trim() === current) return undefined;
  const problem = checkUsername(name);
  return problem ? usernameProblemKey(problem, name.trim()) : undefined;
}

/** A refused save: a username rule (shown at the field) or anything else (shown as an alert). */
export function saveErrorOf(error: unknown, name: string): { field?: FieldError; message?: string } {
  if (error instanceof ApiError) {
    const code = (error.body as { code?: unknown } | undefined)?.code;
    if (isUsernameCode(code)) {
      return { field: usernameProblemKey({ code, tooLong: /too long/.test(error.message) }, name.trim()) };
    }
    // the server's own words when it sent some; otherwise the form's generic message
    const message = (error.body as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' && message !== '' ? { message } : {};
  }
  return {};
}
