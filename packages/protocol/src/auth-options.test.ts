import { describe, expect, it } from 'vitest';
import { areAuthOptionsValid, isStoredTokenValid, sessionTokenKeys } from './auth-options.js';

const base = { platformID: 'web', appID: 'xtalk', identityProvider: 'ggl' };

describe('authentication options', () => {
  it('needs platformID, appID and identityProvider as non-empty strings', () => {
    expect(areAuthOptionsValid(base)).toBe(true);
    for (const key of ['platformID', 'appID', 'identityProvider'] as const) {
      expect(areAuthOptionsValid({ ...base, [key]: '' }), `${key} empty`).toBe(false);
      expect(areAuthOptionsValid({ ...base, [key]: undefined }), `${key} missing`).toBe(false);
      expect(areAuthOptionsValid({ ...base, [key]: 7 }), `${key} a number`).toBe(false);
    }
  });

  it('tg with tgw is valid only with a non-empty stored valid token', () => {
    const tgw = { platformID: 'tg', appID: 'xtalk', identityProvider: 'tgw' };
    expect(areAuthOptionsValid(tgw)).toBe(false);
    expect(areAuthOptionsValid(tgw, '')).toBe(false);
    expect(areAuthOptionsValid(tgw, null)).toBe(false);
    expect(areAuthOptionsValid(tgw, 'a.b.c')).toBe(true);
  });

  it('tg with tga is invalid when signedPayload or data.bot is missing or empty', () => {
    const tga = { platformID: 'tg', appID: 'xtalk', identityProvider: 'tga' };
    expect(
      areAuthOptionsValid({ ...tga, signedPayload: 'query_id=1&hash=ab', data: { bot: 'xtalkbot' } }),
    ).toBe(true);
    expect(areAuthOptionsValid({ ...tga, data: { bot: 'xtalkbot' } })).toBe(false);
    expect(areAuthOptionsValid({ ...tga, signedPayload: '', data: { bot: 'xtalkbot' } })).toBe(false);
    expect(areAuthOptionsValid({ ...tga, signedPayload: 'x=1' })).toBe(false);
    expect(areAuthOptionsValid({ ...tga, signedPayload: 'x=1', data: { bot: '' } })).toBe(false);
    expect(areAuthOptionsValid({ ...tga, signedPayload: 'x=1', data: null })).toBe(false);
  });

  it('any exception makes them invalid', () => {
    const hostile = {
      ...base,
      get appID(): string {
        throw new Error('boom');
      },
    };
    expect(areAuthOptionsValid(hostile)).toBe(false);
    const tga = {
      platformID: 'tg',
      appID: 'xtalk',
      identityProvider: 'tga',
      signedPayload: 'x=1',
      data: {
        get bot(): string {
          throw new Error('boom');
        },
      },
    };
    expect(areAuthOptionsValid(tga)).toBe(false);
  });
});

describe('session token storage', () => {
  it('keys the token by app id and platform player id, else the identity provider, with a time key', () => {
    expect(sessionTokenKeys('xtalk', 'p-1', 'ggl')).toEqual({
      token: 'token:xtalk:p-1',
      time: 'token:xtalk:p-1:time',
    });
    expect(sessionTokenKeys('xtalk', '', 'tgw').token).toBe('token:xtalk:tgw');
    expect(sessionTokenKeys('xtalk', undefined, 'tga').time).toBe('token:xtalk:tga:time');
  });

  it('a stored token is valid only when present and younger than the session duration', () => {
    const now = 1_000_000_000;
    expect(isStoredTokenValid('t', now - 59_000, 60, now)).toBe(true);
    expect(isStoredTokenValid('t', now - 60_000, 60, now)).toBe(false);
    expect(isStoredTokenValid('', now, 60, now)).toBe(false);
    expect(isStoredTokenValid(null, now, 60, now)).toBe(false);
    expect(isStoredTokenValid('t', null, 60, now)).toBe(false);
    expect(isStoredTokenValid('t', Number.NaN, 60, now)).toBe(false);
  });
});
