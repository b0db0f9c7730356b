import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../../testing/free-port.js';
import { startServer, type TestServer } from '../../testing/harness.js';

/* Turnstile mode against a siteverify endpoint started here, speaking Cloudflare's form-encoded protocol. */
describe('guest entry with Turnstile', () => {
  let siteverify: Server;
  let verifyUrl: string;
  const received: URLSearchParams[] = [];
  let server: TestServer;

  beforeAll(async () => {
    siteverify = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        received.push(form);
        const ok = form.get('secret') === 'ts-secret' && form.get('response')?.startsWith('good-');
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify(
            ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
      });
    });
    verifyUrl = `http://127.0.0.1:${await listenOnFreePort(siteverify)}/siteverify`;
    server = await startServer({
      TURNSTILE_SITE_KEY: 'ts-site',
      TURNSTILE_SECRET_KEY: 'ts-secret',
      TURNSTILE_VERIFY_URL: verifyUrl,
    });
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => siteverify.close(resolve));
  });

  const guest = (botcheck: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/guest', payload: { botcheck } });

  it('offers the Turnstile site key instead of a proof-of-work', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/auth/botcheck' });
    expect(response.json()).toEqual({ provider: 'turnstile', siteKey: 'ts-site' });
  });

  it('signs in with a token siteverify accepts, once', async () => {
    const first = await guest('good-token-1');
    expect(first.statusCode).toBe(200);
    expect(first.json().user.provider).toBe('guest');
    expect(received.at(-1)?.get('secret')).toBe('ts-secret');
    expect(received.at(-1)?.get('response')).toBe('good-token-1');
    const replay = await guest('good-token-1');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/already used/);
  });

  it('refuses a token siteverify rejects, naming why', async () => {
    const response = await guest('bad-token');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Bot check failed: invalid-input-response');
  });

  it('answers 503 when siteverify cannot be reached', async () => {
    const unreachable = await startServer({
      TURNSTILE_SITE_KEY: 'ts-site',
      TURNSTILE_SECRET_KEY: 'ts-secret',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:1/siteverify',
    });
    try {
      const response = await unreachable.app.inject({
        method: 'POST',
        url: '/api/auth/guest',
        payload: { botcheck: 'good-token-2' },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toMatch(/try again/);
    } finally {
      await unreachable.close();
    }
  });
});
