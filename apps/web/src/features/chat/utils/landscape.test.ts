import { describe, expect, it } from 'vitest';
import { landscapeContent, latestMessage, otherLanguage } from './landscape';
import type { ChatItem, ChatMessage, ChatSystemEvent } from './chat-items';

function message(id: number, partial: Partial<ChatMessage> = {}): ChatMessage {
  return {
    kind: 'message',
    id,
    username: 'u1',
    displayUsername: 'BraveOtter',
    message: `text ${id}`,
    language: 'en',
    timestamp: id,
    translations: {},
    partial: {},
    isTutorial: false,
    ...partial,
  };
}

function join(timestamp: number): ChatSystemEvent {
  return {
    kind: 'system',
    id: `${timestamp}-JOIN-u2`,
    event: 'JOIN',
    username: 'u2',
    displayUsername: 'CalmPanda',
    timestamp,
  };
}

describe('otherLanguage', () => {
  it('is the other of English and Japanese for the interface languages, whoever reads', () => {
    expect(otherLanguage('en', 'en')).toBe('ja');
    expect(otherLanguage('en', 'ja')).toBe('ja');
    expect(otherLanguage('ja', 'ja')).toBe('en');
    expect(otherLanguage('ja', 'en')).toBe('en');
  });

  it('is the reader’s language for a message in a third one, English when that is the reader’s too', () => {
    expect(otherLanguage('fr', 'ja')).toBe('ja');
    expect(otherLanguage('fr', 'en')).toBe('en');
    expect(otherLanguage('fr', 'fr')).toBe('en');
  });
});

describe('latestMessage', () => {
  it('takes the newest message and skips JOIN/LEAVE events after it', () => {
    const items: ChatItem[] = [message(1), message(2), join(3)];
    expect(latestMessage(items)?.id).toBe(2);
    expect(latestMessage([join(1)])).toBeUndefined();
  });
});

describe('landscapeContent', () => {
  it('is null for an empty room', () => {
    expect(landscapeContent([], 'en')).toBeNull();
    expect(landscapeContent([join(1)], 'en')).toBeNull();
  });

  it('shows an English message’s Japanese translation large and the original below', () => {
    const items = [
      message(1, { translations: { ja: '古い' } }),
      message(2, { message: 'Hello', translations: { ja: 'こんにちは' } }),
    ];
    expect(landscapeContent(items, 'en')).toMatchObject({
      message: { id: 2 },
      primary: { language: 'ja', text: 'こんにちは', done: true },
      original: { language: 'en', text: 'Hello' },
    });
  });

  it('shows a Japanese message’s English translation', () => {
    const items = [
      message(1, { message: 'こんばんは', language: 'ja', translations: { en: 'Good evening' } }),
    ];
    expect(landscapeContent(items, 'ja')?.primary).toEqual({
      language: 'en',
      text: 'Good evening',
      done: true,
    });
  });

  it('shows the translation while it streams, then the complete one', () => {
    const streaming = message(1, { message: 'Hello', partial: { ja: 'こん' } });
    expect(landscapeContent([streaming], 'en')?.primary).toEqual({
      language: 'ja',
      text: 'こん',
      done: false,
    });
    const done = { ...streaming, translations: { ja: 'こんにちは' }, partial: {} };
    expect(landscapeContent([done], 'en')?.primary).toEqual({
      language: 'ja',
      text: 'こんにちは',
      done: true,
    });
  });

  it('shows the original large, alone, until a translation starts', () => {
    const content = landscapeContent(
      [message(1, { message: 'Hello', translations: { fr: 'Bonjour' } })],
      'en',
    );
    expect(content?.primary).toEqual({ language: 'en', text: 'Hello', done: true });
    expect(content?.original).toBeNull();
  });
});
