import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

/*
 * The settings that keep a production server from trusting a request's Host or giving credits away:
 * PUBLIC_URL is required there, and the TEST MODE checkout is off unless named on.
 */

describe('PUBLIC_URL and TEST_CHECKOUT', () => {
  it('refuses to start in production without PUBLIC_URL, naming the setting', () => {
    for (const env of [{ NODE_ENV: 'production' }, {}, { NODE_ENV: 'production', PUBLIC_URL: '  ' }]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(
        /PUBLIC_URL: PUBLIC_URL must be set in production/,
      );
    }
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'xtalk.example' })).toThrow(
      /PUBLIC_URL must be an http:\/\/ or https:\/\/ address/,
    );
    const production = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://xtalk.example/' });
    expect(production).toMatchObject({ PUBLIC_URL: 'https://xtalk.example', publicUrlSet: true });
  });

  it('defaults PUBLIC_URL to http://localhost:PORT outside production', () => {
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({
      PUBLIC_URL: 'http://localhost:8787',
      publicUrlSet: false,
    });
    expect(loadConfig({ NODE_ENV: 'test', PORT: '9000' }).PUBLIC_URL).toBe('http://localhost:9000');
  });

  it('runs the TEST MODE checkout outside production only, unless set explicitly', () => {
    const url = { PUBLIC_URL: 'https://xtalk.example' };
    expect(loadConfig({ NODE_ENV: 'production', ...url }).TEST_CHECKOUT).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', ...url, TEST_CHECKOUT: 'on' }).TEST_CHECKOUT).toBe('on');
    expect(loadConfig({ NODE_ENV: 'development' }).TEST_CHECKOUT).toBe('on');
    expect(loadConfig({ NODE_ENV: 'test', TEST_CHECKOUT: 'off' }).TEST_CHECKOUT).toBe('off');
    expect(() => loadConfig({ NODE_ENV: 'test', TEST_CHECKOUT: 'yes' })).toThrow(/TEST_CHECKOUT/);
  });
});

describe('MESSAGE_RETENTION_DAYS', () => {
  it('keeps messages when unset or empty, takes whole days, and refuses anything else', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).MESSAGE_RETENTION_DAYS).toBeUndefined();
    expect(
      loadConfig({ NODE_ENV: 'test', MESSAGE_RETENTION_DAYS: ' ' }).MESSAGE_RETENTION_DAYS,
    ).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', MESSAGE_RETENTION_DAYS: '30' }).MESSAGE_RETENTION_DAYS).toBe(30);
    for (const value of ['0', '-1', '1.5', 'forever']) {
      expect(() => loadConfig({ NODE_ENV: 'test', MESSAGE_RETENTION_DAYS: value }), value).toThrow(
        /MESSAGE_RETENTION_DAYS/,
      );
    }
  });
});
