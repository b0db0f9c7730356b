import { describe, expect, it } from 'vitest';
import { providerWords } from './provider-words';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the words of the Telegram and wallet sign-ins', () => {
  it('give every key a non-empty Japanese string with the same placeholders', () => {
    for (const [key, english] of Object.entries(providerWords.en)) {
      const japanese = providerWords.ja[key as keyof typeof providerWords.en];
      expect(japanese, key).toBeTruthy();
      expect(placeholders(japanese), key).toEqual(placeholders(english));
    }
  });
});
