import { describe, expect, it } from 'vitest';
import {
  type TranscriptGlossaryEntry,
  escapeMarkdown,
  formatTranscript,
  mailtoHref,
  transcriptFileName,
  type TranscriptItem,
  type TranscriptMessage,
} from './transcript';

// Fixed instants, formatted in explicit zones, so the tests hold whatever TZ the machine is in.
const T1 = Date.UTC(2026, 4, 4, 23, 5); // 2026-05-04 23:05 UTC = 2026-05-05 08:05 in Tokyo
const T2 = Date.UTC(2026, 4, 5, 0, 30); // 2026-05-05 00:30 UTC = 09:30 in Tokyo
const T3 = Date.UTC(2026, 4, 5, 13, 45); // 2026-05-05 13:45 UTC = 22:45 in Tokyo

function message(partial: Partial<TranscriptMessage> & { timestamp: number }): TranscriptMessage {
  return {
    kind: 'message',
    displayUsername: 'BraveOtter',
    message: 'Hello there',
    language: 'en',
    translations: {},
    ...partial,
  };
}

const link = 'https://xtalk.example/translate?r=ABC2345';
const base = { roomId: 'ABC2345', link };

describe('formatTranscript', () => {
  // The chat log as the screen holds it: a JOIN pill, then messages, not in time order.
  const items: TranscriptItem[] = [
    { kind: 'system' },
    message({
      timestamp: T3,
      displayUsername: 'KindFox',
      message: 'おやすみ',
      language: 'ja',
      translations: { en: 'Good night', ja: 'おやすみ' },
    }),
    message({ timestamp: T1, translations: { ja: 'こんにちは' } }),
    message({ timestamp: T2, message: 'Still typing', translations: {} }),
  ];

  it('writes the header, date headings and lines oldest first (en-US, UTC)', () => {
    const text = formatTranscript(items, { ...base, locale: 'en-US', timeZone: 'UTC' });
    expect(text).toBe(
      [
        '# Transcript for XTalk Chat',
        '',
        '**Room:** ABC2345',
        '',
        `[Open Chat](${link})`,
        '',
        '## Monday, May 4, 2026',
        '',
        '- **11:05 PM** BraveOtter: "Hello there" → JA: "こんにちは"',
        '',
        '## Tuesday, May 5, 2026',
        '',
        '- **12:30 AM** BraveOtter: "Still typing"',
        '- **1:45 PM** KindFox: "おやすみ" → EN: "Good night"',
        '',
      ].join('\n'),
    );
  });

  it('groups by the calendar day of the given zone and uses the locale’s 12-hour clock (ja-JP, Tokyo)', () => {
    const text = formatTranscript(items, { ...base, locale: 'ja-JP', timeZone: 'Asia/Tokyo' });
    const body = text.split('\n').slice(6);
    // All three fall on 5 May in Tokyo: one heading.
    expect(body.filter((line) => line.startsWith('## '))).toEqual(['## 2026年5月5日火曜日']);
    expect(body.filter((line) => line.startsWith('- '))).toEqual([
      '- **午前8:05** BraveOtter: "Hello there" → JA: "こんにちは"',
      '- **午前9:30** BraveOtter: "Still typing"',
      '- **午後10:45** KindFox: "おやすみ" → EN: "Good night"',
    ]);
  });

  it('leaves out system events and says so when there are no messages', () => {
    const text = formatTranscript([{ kind: 'system' }], { ...base, locale: 'en-US', timeZone: 'UTC' });
    expect(text).not.toContain('## ');
    expect(text.trimEnd().endsWith('_No messages yet._')).toBe(true);
  });

  it("lists the room's glossary at the end", () => {
    const glossary: TranscriptGlossaryEntry[] = [
      { term: 'Kite', language: 'en', renderings: { ja: 'カイト' } },
      { term: '翔太', language: 'ja', renderings: {} },
    ];
    const text = formatTranscript([], { ...base, locale: 'en-US', timeZone: 'UTC', glossary });
    expect(text.trimEnd().split('\n').slice(-4)).toEqual([
      '## Glossary',
      '',
      '- **Kite** (EN) → JA: "カイト"',
      '- **翔太** (JA)',
    ]);
  });

  it('keeps each message on one line and its text from turning into markup', () => {
    const text = formatTranscript(
      [
        message({
          timestamp: T1,
          displayUsername: 'snake_case_name',
          message: 'line one\nline *two* <b>[x](y)</b>',
          translations: { ja: '一行目\n二行目', fr: 'ligne', en: 'ignored: same language' },
        }),
      ],
      { ...base, locale: 'en-US', timeZone: 'UTC' },
    );
    const lines = text.split('\n').filter((line) => line.startsWith('- '));
    expect(lines).toEqual([
      '- **11:05 PM** snake\\_case\\_name: "line one line \\*two\\* \\<b\\>\\[x\\](y)\\</b\\>"' +
        ' → JA: "一行目 二行目" → FR: "ligne"',
    ]);
  });

  it('keeps a link with odd characters intact', () => {
    const text = formatTranscript([], {
      roomId: 'ABC2345',
      link: 'http://host/a (b)?r=ABC2345',
      locale: 'en-US',
      timeZone: 'UTC',
    });
    expect(text).toContain('[Open Chat](http://host/a%20%28b%29?r=ABC2345)');
  });
});

describe('escapeMarkdown', () => {
  it('escapes only what renders as markup', () => {
    expect(escapeMarkdown('a_b *c* `d` [e] <f> \\ plain. (g)!')).toBe(
      'a\\_b \\*c\\* \\`d\\` \\[e\\] \\<f\\> \\\\ plain. (g)!',
    );
  });
});

describe('transcriptFileName', () => {
  it('follows xtalk-{roomId}-{timestamp}.md', () => {
    expect(transcriptFileName('ABC2345', T1)).toBe(`xtalk-ABC2345-${T1}.md`);
    expect(transcriptFileName('../x y', 5)).toBe('xtalk-xy-5.md');
  });
});

describe('mailtoHref', () => {
  it('encodes subject and body, CRLF line breaks, no recipient by default', () => {
    expect(mailtoHref({ subject: 'A & B', body: '# T\nline 2' })).toBe(
      'mailto:?subject=A%20%26%20B&body=%23%20T%0D%0Aline%202',
    );
  });

  it('puts the optional recipient first', () => {
    expect(mailtoHref({ email: 'ann@example.com', subject: 's', body: 'b' })).toBe(
      'mailto:ann@example.com?subject=s&body=b',
    );
  });
});
