import { describe, expect, it } from 'vitest';
import { alertText, alertWords } from './alerts';
import { placeholdersOf } from './index';

describe('the words of notifications', () => {
  it('give every key a Japanese string with the same placeholders', () => {
    for (const [key, english] of Object.entries(alertWords.en)) {
      const japanese = alertWords.ja[key as keyof typeof alertWords.en];
      expect(japanese, key).toBeTruthy();
      expect(placeholdersOf(japanese), key).toEqual(placeholdersOf(english));
    }
  });

  it('fill the title with the sender and the room', () => {
    expect(alertText('en', 'title', { name: 'Alice', room: 'ABC2345' })).toBe('Alice in room ABC2345');
    expect(alertText('ja', 'title', { name: 'Alice', room: 'ABC2345' })).toBe('Alice（ルーム ABC2345）');
  });
});
