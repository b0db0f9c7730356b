import type { ChatItem, ChatMessage } from './chat-items';

/*
 * What the landscape view shows (docs/product.md#the-room-screen): on touch devices in landscape a
 * full-screen black view shows the latest message, the translation into the other language large, the
 * original below.
 *
 * "The other language": the viewer's language when the message is in another one (a Japanese reader
 * sees an English message in Japanese); when the message is already in the viewer's language, the other
 * of English and Japanese (the phone is being shown to the person across the table). For the two
 * interface languages both readings agree: English originals show Japanese, Japanese originals English.
 */

export interface LandscapeContent {
  message: ChatMessage;
  /** The big line: the translation, or the original while no translation has started. */
  primary: { language: string; text: string; done: boolean };
  /** The original below it; null while the big line is the original itself. */
  original: { language: string; text: string } | null;
}

export function otherLanguage(messageLanguage: string, viewerLanguage: string): string {
  if (viewerLanguage !== messageLanguage) return viewerLanguage;
  return messageLanguage === 'en' ? 'ja' : 'en';
}

/** The newest chat message (JOIN/LEAVE events are not messages); the log is kept oldest first. */
export function latestMessage(items: readonly ChatItem[]): ChatMessage | undefined {
  let latest: ChatMessage | undefined;
  for (const item of items) {
    if (item.kind === 'message' && (!latest || item.timestamp >= latest.timestamp)) latest = item;
  }
  return latest;
}

export function landscapeContent(
  items: readonly ChatItem[],
  viewerLanguage: string,
): LandscapeContent | null {
  const message = latestMessage(items);
  if (!message) return null;
  const target = otherLanguage(message.language, viewerLanguage);
  const original = { language: message.language, text: message.message };
  const complete = message.translations[target];
  if (complete !== undefined)
    return { message, primary: { language: target, text: complete, done: true }, original };
  const partial = message.partial[target];
  if (partial) return { message, primary: { language: target, text: partial, done: false }, original };
  // Nothing in that language (yet): show the original big rather than an empty screen.
  return {
    message,
    primary: { language: message.language, text: message.message, done: true },
    original: null,
  };
}
