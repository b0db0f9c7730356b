import { describe, expect, it } from 'vitest';
import { shareLink } from './share-link';

describe('shareLink', () => {
  it('adds ?r= to the page address and drops the page query', () => {
    expect(shareLink('https://xtalk.app/translate?r=OLDROOM', 'ABC2345')).toBe(
      'https://xtalk.app/translate?r=ABC2345',
    );
  });

  it('strips a trailing /new segment and trailing slashes', () => {
    expect(shareLink('https://xtalk.app/translate/new', 'ABC2345')).toBe(
      'https://xtalk.app/translate?r=ABC2345',
    );
    expect(shareLink('https://xtalk.app/translate/', 'ABC2345')).toBe(
      'https://xtalk.app/translate?r=ABC2345',
    );
    expect(shareLink('http://localhost:8787/translate/new/', 'ABC2345')).toBe(
      'http://localhost:8787/translate?r=ABC2345',
    );
  });

  it('leaves the room out when it is missing or still new', () => {
    expect(shareLink('https://xtalk.app/translate/new', 'new')).toBe('https://xtalk.app/translate');
    expect(shareLink('https://xtalk.app/translate?r=X', null)).toBe('https://xtalk.app/translate');
  });

  it('only strips a whole /new segment', () => {
    expect(shareLink('https://xtalk.app/renew', 'ABC2345')).toBe('https://xtalk.app/renew?r=ABC2345');
  });
});
