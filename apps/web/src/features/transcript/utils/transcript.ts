import { PRODUCT_NAME } from '@xtalk/protocol';

/*
 * The chat transcript (names in docs/product.md#calls-other-clients-rely-on): a markdown document headed
 * 'Transcript for XTalk Chat' with the room id and an 'Open Chat' link, then the messages oldest first,
 * grouped under date headings, each line: 12-hour time, display name, the quoted original and its
 * translation. Pure: the caller passes the locale and (for tests) the time zone.
 *
 * Choices the product leaves open:
 * - JOIN/LEAVE pills are room events, not chat lines: they are left out.
 * - Only complete translations are written; one still streaming in is skipped rather than half-quoted.
 * - "Japanese translation": a Japanese original has no Japanese translation, so its English one is
 *   written instead. Every other complete translation follows too (Japanese first, then English, then
 *   the rest alphabetically) so a room translating into more languages loses nothing.
 * - The document's fixed words (header, 'Room', 'Open Chat') stay English as the product names them; dates
 *   and times follow the user's locale.
 */

/** The part of a chat message the transcript reads; the chat log's messages fit it as they are. */
export interface TranscriptMessage {
  kind: 'message';
  timestamp: number;
  displayUsername: string;
  message: string;
  language: string;
  translations: Readonly<Record<string, string>>;
}

/** Anything else in the chat log (JOIN/LEAVE events) is accepted and skipped. */
export type TranscriptItem = TranscriptMessage | { kind: 'system' | 'members' };

export interface TranscriptOptions {
  roomId: string;
  /** The 'Open Chat' link: the room's share link (page address + ?r=ROOM). */
  link: string;
  /** BCP 47 locale for dates and times, e.g. 'en-US' or 'ja-JP'. */
  locale: string;
  /** IANA time zone; the browser's own when omitted (tests pass one so they hold in any zone). */
  timeZone?: string;
  /** The room's glossary, listed at the end. */
  glossary?: readonly TranscriptGlossaryEntry[];
}

/** A glossary entry as the transcript lists it. */
export interface TranscriptGlossaryEntry {
  term: string;
  language: string;
  renderings: Record<string, string>;
}

/** The glossary's section: each term, its language, and its required renderings. */
function glossaryLines(glossary: readonly TranscriptGlossaryEntry[] | undefined): string[] {
  if (!glossary || glossary.length === 0) return [];
  return [
    '',
    '## Glossary',
    '',
    ...glossary.map((entry) => {
      const renderings = Object.entries(entry.renderings)
        .map(([language, text]) => ` → ${language.toUpperCase()}: ${quote(text)}`)
        .join('');
      return `- **${oneLine(entry.term)}** (${entry.language.toUpperCase()})${renderings}`;
    }),
  ];
}

export const TRANSCRIPT_TITLE = `Transcript for ${PRODUCT_NAME} Chat`;

const TRANSLATION_ORDER = ['ja', 'en'];

/** Backslash-escape what would otherwise turn a chat text into markup (emphasis, links, html, code). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&');
}

/** One line per message: runs of whitespace (newlines included) become one space. */
function oneLine(text: string): string {
  return escapeMarkdown(text.replace(/\s+/g, ' ').trim());
}

/** ICU puts a narrow no-break space before AM/PM; a plain space reads the same and greps better. */
function plainSpaces(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

/** Parentheses and spaces would end a link target early; the share link has none, but be sure. */
function linkTarget(url: string): string {
  return url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function quote(text: string): string {
  return `"${oneLine(text)}"`;
}

/** Complete translations other than the original's language, in transcript order. */
export function transcriptTranslations(
  message: TranscriptMessage,
): Array<{ language: string; text: string }> {
  const rank = (language: string) => {
    const index = TRANSLATION_ORDER.indexOf(language);
    return index < 0 ? TRANSLATION_ORDER.length : index;
  };
  return Object.entries(message.translations)
    .filter(([language, text]) => language !== message.language && text.trim() !== '')
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([language, text]) => ({ language, text }));
}

export function formatTranscript(items: readonly TranscriptItem[], options: TranscriptOptions): string {
  const { locale, timeZone } = options;
  const dateFormat = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone,
  });
  const timeFormat = new Intl.DateTimeFormat(locale, {
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone,
  });

  const messages = items
    .filter((item): item is TranscriptMessage => item.kind === 'message')
    // The screen shows newest first; the transcript reads oldest first. Stable for equal times.
    .slice()
    .sort((a, b) => a.timestamp - b.timestamp);

  const lines = [
    `# ${TRANSCRIPT_TITLE}`,
    '',
    `**Room:** ${escapeMarkdown(options.roomId)}`,
    '',
    `[Open Chat](${linkTarget(options.link)})`,
  ];
  if (messages.length === 0) lines.push('', '_No messages yet._');

  let day: string | undefined;
  for (const message of messages) {
    const date = new Date(message.timestamp);
    const heading = plainSpaces(dateFormat.format(date));
    if (heading !== day) {
      day = heading;
      lines.push('', `## ${heading}`, '');
    }
    const translated = transcriptTranslations(message)
      .map(({ language, text }) => ` → ${language.toUpperCase()}: ${quote(text)}`)
      .join('');
    lines.push(
      `- **${plainSpaces(timeFormat.format(date))}** ${oneLine(message.displayUsername)}: ${quote(message.message)}${translated}`,
    );
  }
  lines.push(...glossaryLines(options.glossary));
  return `${lines.join('\n')}\n`;
}

/** `xtalk-{roomId}-{timestamp}.md`, a name other clients rely on; the timestamp is the export time in ms. */
export function transcriptFileName(roomId: string, now: number): string {
  const safeRoom = roomId.replace(/[^A-Za-z0-9_-]/g, '') || 'room';
  return `${PRODUCT_NAME.toLowerCase()}-${safeRoom}-${now}.md`;
}

/** What the transcript menu's Email share sends. */
export interface EmailSharePayload {
  email?: string;
  subject: string;
  body: string;
}

/**
 * A mailto: address for the payload (RFC 6068): recipient optional, subject and body percent-encoded,
 * line breaks as CRLF. Spaces are %20, never '+', which mail clients would show literally.
 */
export function mailtoHref({ email, subject, body }: EmailSharePayload): string {
  const to = email ? encodeURIComponent(email).replace(/%40/g, '@') : '';
  const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(crlf(body))}`;
}
