import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorShape } from './error-shape.js';
import { useZodSchemas } from './route-schemas.js';

/* A route's zod schemas, checked on the way in and on the way out, refusals in the product's shape. */

async function appWith(answer: unknown) {
  const app = Fastify({ logger: false });
  useZodSchemas(app);
  registerErrorShape(app, { deliberate: () => false, codeOf: () => 'bad_request' });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/thing',
    {
      schema: {
        body: z.object({
          name: z.string({ message: 'name is required.' }),
          tags: z.array(z.string().min(2)).optional(),
        }),
        response: { 200: z.object({ id: z.string() }) },
      },
    },
    async () => answer as { id: string },
  );
  return app;
}

describe('route schemas', () => {
  it('refuses a body that breaks the schema with `path: problem` in the error shape', async () => {
    const app = await appWith({ id: 'a' });
    const response = await app.inject({ method: 'POST', url: '/thing', payload: { name: 'n', tags: ['x'] } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'tags.0: Too small: expected string to have >=2 characters',
      code: 'bad_request',
    });
  });

  it('checks an absent body as an empty object, so the schema words what is missing', async () => {
    const app = await appWith({ id: 'a' });
    const response = await app.inject({ method: 'POST', url: '/thing' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('name: name is required.');
  });

  it('writes an answer with the writer compiled from its schema: unnamed fields are never written', async () => {
    const ok = await (
      await appWith({ id: 'a', secret: 's' })
    ).inject({
      method: 'POST',
      url: '/thing',
      payload: { name: 'n' },
    });
    expect([ok.statusCode, ok.json()]).toEqual([200, { id: 'a' }]);
    const missing = await (
      await appWith({ secret: 's' })
    ).inject({
      method: 'POST',
      url: '/thing',
      payload: { name: 'n' },
    });
    expect(missing.statusCode).toBe(500);
    expect(missing.body).not.toContain('secret');
  });
});
