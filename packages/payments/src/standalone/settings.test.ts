import { describe, expect, it } from 'vitest';
import { loadStandaloneSettings } from './settings.js';

/* The standalone service holds production to the server's rules: PUBLIC_URL required, no TEST MODE. */

const SECRET = { AUTH_SECRET: 'standalone-settings-secret-long-enough' };

describe('standalone settings', () => {
  it('refuses production without PUBLIC_URL, naming it, and keeps TEST MODE off there', () => {
    expect(() => loadStandaloneSettings(SECRET)).toThrow(/PUBLIC_URL: PUBLIC_URL must be set in production/);
    const production = loadStandaloneSettings({ ...SECRET, PUBLIC_URL: 'https://pay.example' });
    expect(production).toMatchObject({ PUBLIC_URL: 'https://pay.example', TEST_CHECKOUT: 'off' });
    expect(
      loadStandaloneSettings({ ...SECRET, PUBLIC_URL: 'https://pay.example', TEST_CHECKOUT: 'on' })
        .TEST_CHECKOUT,
    ).toBe('on');
  });

  it('defaults PUBLIC_URL to http://localhost:PORT and TEST MODE on elsewhere', () => {
    expect(loadStandaloneSettings({ ...SECRET, NODE_ENV: 'development', PORT: '8791' })).toMatchObject({
      PUBLIC_URL: 'http://localhost:8791',
      TEST_CHECKOUT: 'on',
    });
  });
});
