import { describe, expect, it } from 'vitest';
import { en } from './en';
import { ja } from './ja';
import { translate } from './index';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('dictionaries', () => {
  it('give every key a non-empty Japanese string with the same placeholders', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(ja[key], key).toBeTruthy();
      expect(placeholders(ja[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('fill placeholders', () => {
    expect(translate('en', 'room.joinError', { message: 'Room not found.' })).toBe(
      'Error joining room: Room not found.',
    );
    expect(translate('ja', 'time.minutesAgo', { n: 3 })).toBe('3分前');
  });

  it("carry the product's fixed texts verbatim", () => {
    expect(en['guest.micDenied']).toBe('Microphone access was denied. Some features may be limited.');
    expect(en['menu.createConfirm']).toBe('Create a new chat room? This will leave your current room.');
    expect(en['notFound.title']).toBe('Oops! Page Not Found.');
    expect(en['chat.empty']).toBe('Start chatting by tapping the mic!');
    expect(en['audio.avatarError']).toBe('Avatar playback error');
    expect(en['voice.noAudioContext']).toBe('Browser does not support AudioContext');
    expect(en['credits.nonSuccess']).toBe('API returned a non success status code: {error}');
  });

  it("word the error catalogue's playback, audio and payment texts in Japanese too", () => {
    const catalogue = ['audio.avatarError', 'voice.noAudioContext', 'credits.nonSuccess'] as const;
    for (const key of catalogue) {
      expect(ja[key], key).not.toBe(en[key]);
      expect(ja[key], key).toMatch(/[\u3040-\u30ff\u4e00-\u9faf]/);
    }
  });
});
