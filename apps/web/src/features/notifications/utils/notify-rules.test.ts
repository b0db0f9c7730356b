import { SYSTEM_USERNAME } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import {
  MAX_BODY_CHARS,
  messageNotification,
  notificationBody,
  notifies,
  type NotifyingMessage,
} from './notify-rules';

const message = (over: Partial<NotifyingMessage> = {}): NotifyingMessage => ({
  id: 1700000000123,
  username: 'alice',
  displayUsername: 'Alice',
  message: 'see you at noon',
  language: 'en',
  translations: {},
  isTutorial: false,
  ...over,
});
const title = (name: string, room: string) => `${name} in room ${room}`;

describe('which messages notify', () => {
  it('is someone else’s message only', () => {
    expect(notifies(message(), 'bob')).toBe(true);
    expect(notifies(message(), 'alice')).toBe(false);
  });

  it('is never the mascot’s tutorial or a system message', () => {
    expect(notifies(message({ isTutorial: true }), 'bob')).toBe(false);
    expect(notifies(message({ username: SYSTEM_USERNAME }), 'bob')).toBe(false);
  });
});

describe('what a notification says', () => {
  it('shows the translation into the listening language once it is complete', () => {
    const translated = message({ translations: { ja: '正午に会いましょう' } });
    expect(notificationBody(translated, 'ja')).toBe('正午に会いましょう');
  });

  it('shows the message as written before its translation, or in its own language', () => {
    expect(notificationBody(message(), 'ja')).toBe('see you at noon');
    expect(notificationBody(message({ translations: { ja: '正午' } }), 'en')).toBe('see you at noon');
  });

  it('cuts a long text', () => {
    const body = notificationBody(message({ message: 'x'.repeat(1000) }), 'en');
    expect(body).toHaveLength(MAX_BODY_CHARS);
    expect(body.endsWith('…')).toBe(true);
  });

  it('is titled by the sender and the room, tagged by room and message', () => {
    const notification = messageNotification(message(), { roomId: 'ABC2345', listening: 'ja', title });
    expect(notification).toEqual({
      tag: 'xtalk-ABC2345-1700000000123',
      title: 'Alice in room ABC2345',
      body: 'see you at noon',
    });
  });
});
