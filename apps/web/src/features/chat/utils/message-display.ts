import type { ChatMessage } from './chat-items';

/* What a message shows besides its text: its translations in order, its note without quotes. */

/**
 * The translations to show above the original: every language but the message's own, the listener's
 * language first (a room may translate into more than two), then the others alphabetically.
 */
export function visibleTranslations(
  message: ChatMessage,
  listening?: string,
): Array<{ language: string; text: string; done: boolean }> {
  const languages = new Set([...Object.keys(message.translations), ...Object.keys(message.partial)]);
  languages.delete(message.language);
  const order = (language: string) => (language === listening ? 0 : 1);
  const sorted = [...languages].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return sorted.map((language) => {
    const complete = message.translations[language];
    return complete !== undefined
      ? { language, text: complete, done: true }
      : { language, text: message.partial[language] ?? '', done: false };
  });
}

const QUOTES = `"'\`“”‘’「」『』«»`;

/** The note without the quote characters models like to wrap it in. */
export function stripQuotes(note: string): string {
  const text = note.trim();
  let start = 0;
  let end = text.length;
  while (start < end && QUOTES.includes(text[start]!)) start++;
  while (end > start && QUOTES.includes(text[end - 1]!)) end--;
  return text.slice(start, end).trim();
}
