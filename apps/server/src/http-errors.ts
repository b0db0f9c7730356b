import type { ZodType } from 'zod';

/** An error Fastify turns into `{ statusCode, error, message }` with that status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Parse a request part with a protocol schema; a failure is a 400 naming the first problem. */
export function parseOr400<T>(schema: ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.');
  throw new HttpError(400, issue ? `${path ? `${path}: ` : ''}${issue.message}` : 'Invalid request.');
}
