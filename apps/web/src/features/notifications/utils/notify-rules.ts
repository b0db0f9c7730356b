import { SYSTEM_USERNAME } from '@xtalk/protocol';

/*
 * Which messages raise a system notification and what it says. Pure, so the rules are tested without a
 * browser; the notifications themselves are made by notifier.ts.
 */

/** What the rules read of a message (a chat item, or the frame that brought it). */
export interface NotifyingMessage {
  id: number;
  username: string;
  displayUsername?: string | undefined;
  message: string;
  language: string;
  translations: Readonly<Record<string, string>>;
  isTutorial: boolean;
}

export interface MessageNotification {
  /** One per message of the room: a later text of the same message replaces its notification. */
  tag: string;
  title: string;
  body: string;
}

/** A notification's text is cut here: the system shows a few lines at most. */
export const MAX_BODY_CHARS = 280;

/** Someone else's message: never one's own, never the mascot's tutorial or a system message. */
export function notifies(message: Pick<NotifyingMessage, 'username' | 'isTutorial'>, me: string): boolean {
  return !message.isTutorial && message.username !== me && message.username !== SYSTEM_USERNAME;
}

export const notificationTag = (roomId: string, id: number): string => `xtalk-${roomId}-${id}`;

/**
 * The text to show: the translation into the listening language once it is complete, else the message as
 * written (its own language, a translation still streaming, or one that failed).
 */
export function notificationBody(message: NotifyingMessage, listening: string): string {
  const translated = message.language === listening ? undefined : message.translations[listening];
  const text = (translated ?? message.message).trim();
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS - 1)}…` : text;
}

export interface NotificationContext {
  roomId: string;
  listening: string;
  /** The title in the interface language, from the sender's name and the room. */
  title: (name: string, room: string) => string;
}

export function messageNotification(
  message: NotifyingMessage,
  context: NotificationContext,
): MessageNotification {
  return {
    tag: notificationTag(context.roomId, message.id),
    title: context.title(message.displayUsername ?? message.username, context.roomId),
    body: notificationBody(message, context.listening),
  };
}
