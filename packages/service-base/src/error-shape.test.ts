import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { INTERNAL_MESSAGE, registerErrorShape } from './error-shape.js';

/*
 * The error shape as a host registers it: a refusal keeps its message and its own code, an unexpected
 * failure is answered with the fixed sentence, a deliberate one with its own.
 */

class Deliberate extends Error {
  readonly statusCode = 503;
}

async function appWith(options: Parameters<typeof registerErrorShape>[1]) {
  const app = Fastify({ logger: false });
  registerErrorShape(app, options);
  app.get('/refused', () => {
    throw Object.assign(new Error('Bad thing.'), { statusCode: 400, code: 'bad_thing' });
  });
  app.get('/broken', () => {
    throw new Error('secret internals');
  });
  app.get('/deliberate', () => {
    throw new Deliberate('Not configured.');
  });
  app.post('/json', () => ({}));
  await app.ready();
  return app;
}

describe('registerErrorShape', () => {
  it('answers refusals, failures and deliberate 5xx in the one shape, codes only where given', async () => {
    const app = await appWith({ deliberate: (error) => error instanceof Deliberate });
    const refused = await app.inject({ method: 'GET', url: '/refused' });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('application/json');
    expect(refused.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Bad thing.',
      code: 'bad_thing',
    });
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    expect(broken.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: INTERNAL_MESSAGE,
    });
    const deliberate = await app.inject({ method: 'GET', url: '/deliberate' });
    expect(deliberate.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Not configured.',
    });
    // Fastify's own code says little to a client: it is left out
    const notJson = await app.inject({
      method: 'POST',
      url: '/json',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBeUndefined();
    await app.close();
  });

  it("gives the status's code and the internal code when the host names them", async () => {
    const app = await appWith({
      deliberate: () => false,
      codeOf: (status) => `status_${status}`,
      internalCode: 'internal',
    });
    expect((await app.inject({ method: 'GET', url: '/refused' })).json().code).toBe('bad_thing');
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    expect(broken.json()).toMatchObject({ message: INTERNAL_MESSAGE, code: 'internal' });
    const deliberate = await app.inject({ method: 'GET', url: '/deliberate' });
    expect(deliberate.json()).toMatchObject({ statusCode: 503, message: INTERNAL_MESSAGE, code: 'internal' });
    const notJson = await app.inject({
      method: 'POST',
      url: '/json',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.json().code).toBe('status_400');
    await app.close();
  });
});
