import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { compiledAnswerWriter } from './answer-writer.js';

/*
 * Routes declare their params, query, body and answers as zod schemas (decision 0223): Fastify checks a
 * request against them before the handler runs, and writes each answer with a writer compiled from its
 * schema (decision 0253), which writes the fields the published document names and no other.
 */

/**
 * The provider's validator, with an absent part checked as an empty object: a body-less POST is refused
 * with the sentence its schema gives for missing fields ("appId, productId and purchaseToken are
 * required."), not with a type error about `null`.
 */
const checkAbsentAsEmpty: FastifySchemaCompiler<ZodType> = (route) => {
  const check = validatorCompiler(route);
  return (data) => check(data ?? {});
};

/** Validation and serialisation from the routes' zod schemas, in `app`'s scope and every scope inside. */
export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(checkAbsentAsEmpty);
  app.setSerializerCompiler(compiledAnswerWriter);
}

/** The first problem of a request that failed its route's schema, as the error body words it. */
export interface SchemaRefusal {
  /** `path: problem`, the sentence clients and tests have always been given. */
  message: string;
  /** Where in the part the problem is (`password`, `items.0.term`), empty for the part as a whole. */
  path: readonly string[];
  /** The zod issue's code (`too_small`, `invalid_type`...). */
  issueCode: string;
  /** The zod issue's other fields (`minimum`, `maximum`...). */
  params: Readonly<Record<string, unknown>>;
}

/** Reads a schema refusal out of a Fastify validation error; undefined for every other error. */
export function schemaRefusalOf(error: unknown): SchemaRefusal | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const first = error.validation[0]!;
  const path = first.instancePath.split('/').filter((part) => part !== '');
  const at = path.join('.');
  return {
    message: `${at ? `${at}: ` : ''}${first.message}`,
    path,
    issueCode: first.keyword,
    params: first.params,
  };
}
