import type { FastifyInstance } from 'fastify';
import { hasLoneSurrogate } from '@xtalk/protocol';
import { HttpError } from '../http-errors.js';

/*
 * Every JSON body is checked once, before any route sees it, for what no route can use and PostgreSQL
 * cannot store: NUL characters and unpaired surrogates (in values and in keys), and nesting deeper than
 * MAX_BODY_DEPTH. So a route added later (payments, new sign-ins) gets a 400 for these, never a 500 from
 * the database or a stack overflow. The walk is iterative and stops at the first problem.
 */

export const MAX_BODY_DEPTH = 32;

/** The first problem of a parsed JSON value, as a message naming where it is; undefined if none. */
export function jsonProblem(value: unknown, maxDepth = MAX_BODY_DEPTH): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: 'body', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const problem = stringProblem(item.value);
      if (problem) return `${item.path}: ${problem}`;
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= maxDepth) return `${item.path}: nested more than ${maxDepth} levels deep.`;
    for (const [key, child] of Object.entries(item.value)) {
      const keyProblem = stringProblem(key);
      if (keyProblem) return `${item.path}: a key ${keyProblem}`;
      stack.push({ value: child, path: `${item.path}.${key.slice(0, 40)}`, depth: item.depth + 1 });
    }
  }
  return undefined;
}

function stringProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character.';
  if (hasLoneSurrogate(text)) return 'contains a broken character (an unpaired UTF-16 surrogate).';
  return undefined;
}

export function registerBodyGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null || typeof request.body !== 'object') return;
    const problem = jsonProblem(request.body);
    if (problem) throw new HttpError(400, problem);
  });
}
