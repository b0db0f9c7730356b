import { describe, expect, it } from 'vitest';
import { describeConfig, loadConfig } from '../config.js';

/* The settings that turn the payment service's keys and stores on, as this server reads them. */

describe('payment settings', () => {
  it('validates and masks the payment settings', () => {
    expect(() => loadConfig({ PAYMENT_SERVER_KEY: 'short' })).toThrow(
      /PAYMENT_SERVER_KEY must be at least 16 characters/,
    );
    expect(() => loadConfig({ GOOGLE_PLAY_API_URL: 'not a url' })).toThrow(/GOOGLE_PLAY_API_URL/);
    const config = loadConfig({
      NODE_ENV: 'test',
      PAYMENT_SERVER_KEY: 'server-key-0123456789',
      GOOGLE_PLAY_SERVICE_ACCOUNT: '{"private_key": "secret"}',
      FACEBOOK_APP_SECRET: 'fb-secret',
    });
    expect(describeConfig(config)).toMatchObject({
      PAYMENT_SERVER_KEY: '***',
      GOOGLE_PLAY_SERVICE_ACCOUNT: '***',
      FACEBOOK_APP_SECRET: '***',
      GOOGLE_PLAY_API_URL: 'https://androidpublisher.googleapis.com/',
    });
  });
});
