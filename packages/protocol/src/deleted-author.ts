import type { MessageFrame } from './frames.js';

/*
 * How an author whose account was deleted is named. No zod here: the web's room screen imports this for
 * its chat list, and a schema built at a module's top level would bring all of zod into the task that
 * evaluates the screen.
 */

/** How a deleted author is named in the two interface languages: no name, no avatar, no link back. */
export const DELETED_USER_NAME = { en: 'deleted user', ja: '削除されたユーザー' } as const;

/**
 * The author of a message as the AI engines' context names them (translation, summaries): a deleted
 * author is a deleted user, never an empty name the engine would guess at.
 */
export function contextAuthorOf(
  message: Pick<MessageFrame, 'username' | 'displayUsername' | 'authorDeleted'>,
): string {
  return message.authorDeleted ? DELETED_USER_NAME.en : (message.displayUsername ?? message.username);
}
