import { httpErrorCodeOf, type HttpErrorCode } from '@xtalk/protocol';
import type { SchemaRefusal } from '@xtalk/service-base';
import type { ZodType } from 'zod';

/**
 * An error Fastify turns into `{ statusCode, code, error, message }` with that status. `code` (one of
 * HTTP_ERROR_CODES, by default the status's) is what clients word in their language; `message` stays
 * English for logs and older clients.
 */
export class HttpError extends Error {
  /** One of HTTP_ERROR_CODES, or a finer code of a module's own (the username rules'). */
  readonly code: string;
  constructor(
    readonly statusCode: number,
    message: string,
    /** A module may give a finer word of its own (the payment service's, the username rules'). */
    code?: HttpErrorCode | (string & {}),
  ) {
    super(message);
    this.code = code ?? httpErrorCodeOf(statusCode);
  }
}

/** Picks a finer code than `bad_request` for a schema issue a client words on its own (a short password). */
export type IssueCode = (refusal: SchemaRefusal) => HttpErrorCode | undefined;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The code a request that fails this route's schema answers with; default `bad_request`. */
    issueCode?: IssueCode;
  }
}

/**
 * Parse a part of a request that its route's schema cannot name (the proof of the provider a body
 * chose); a failure is a 400 naming the first problem, as a schema refusal is worded.
 */
export function parseOr400<T>(schema: ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.');
  throw new HttpError(400, issue ? `${path ? `${path}: ` : ''}${issue.message}` : 'Invalid request.');
}
