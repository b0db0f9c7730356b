import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { checkAnswers } from './answer-writer.js';
import { registerErrorShape } from './error-shape.js';
import { useZodSchemas } from './route-schemas.js';

/* Answers written by the writer compiled from their schema, and checked by zod in tests. */

const answerSchema = z.object({
  id: z.string(),
  count: z.number().int(),
  at: z.iso.datetime(),
  note: z.string().nullable(),
  kind: z.enum(['text', 'voice']),
  extra: z.string().optional(),
  tags: z.array(z.object({ term: z.string() })),
  byLanguage: z.record(z.string(), z.object({ text: z.string() })),
  item: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('voice'), seconds: z.number() }),
  ]),
  either: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
});

/** What a handler returns: every object carries a field its schema does not name. */
const answer = {
  id: 'm1',
  count: 3,
  at: '2026-11-28T12:00:00.000Z',
  note: null,
  kind: 'voice',
  passwordHash: 'leak-top',
  tags: [{ term: 'XTalk', secret: 'leak-array' }],
  byLanguage: { ja: { text: 'こんにちは "quoted"', secret: 'leak-record' } },
  item: { type: 'voice', seconds: 1.5, secret: 'leak-union' },
  either: { b: 2, secret: 'leak-plain-union' },
};

async function serve(data: unknown, schema: ZodType = answerSchema, checked = false) {
  const app = Fastify({ logger: false });
  if (checked) app.addHook('onRoute', checkAnswers);
  useZodSchemas(app);
  registerErrorShape(app, { deliberate: () => false, codeOf: () => 'bad_request' });
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/answer', { schema: { response: { 200: schema } } }, async () => data as never);
  return app.inject({ method: 'GET', url: '/answer' });
}

describe('the compiled answer writer', () => {
  it('writes what zod writes, and no field the schema does not name, at any depth', async () => {
    const response = await serve(answer);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(answerSchema.parse(answer));
    expect(response.body).not.toContain('leak');
  });

  it('refuses an answer that lacks a required field, writing none of it', async () => {
    const { id: _id, ...withoutId } = answer;
    const response = await serve(withoutId);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('m1');
    expect(response.body).not.toContain('leak');
  });

  it('writes a value JSON Schema cannot describe (a date) through zod, as before', async () => {
    const response = await serve({ at: new Date(0) }, z.object({ at: z.date() }));
    expect(response.json()).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });
});

describe('answers checked in tests', () => {
  it('makes a handler that answers outside its schema fail its route test with a 500', async () => {
    for (const wrong of [
      { ...answer, count: '3' },
      { ...answer, kind: 'video' },
      { ...answer, item: { type: 'voice', seconds: 'long' } },
    ]) {
      const response = await serve(wrong, answerSchema, true);
      expect(response.statusCode, JSON.stringify(wrong)).toBe(500);
      expect(response.body).not.toContain('leak');
    }
  });

  it('passes an answer inside its schema, written by the compiled writer', async () => {
    const response = await serve(answer, answerSchema, true);
    expect([response.statusCode, response.json()]).toEqual([200, answerSchema.parse(answer)]);
  });
});
