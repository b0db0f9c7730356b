import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler, RouteOptions } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as checkingSerializerCompiler } from 'fastify-type-provider-zod';
import { toJSONSchema, type ZodType } from 'zod';

/*
 * Answers are written by a serialiser compiled once per route and status from the answer's zod schema
 * (decision 0253): the schema becomes a JSON Schema, and fast-json-stringify turns that into a function
 * that writes exactly the named fields. Checking every answer with zod on its way out cost more than the
 * rest of a light route's work; the check moves to the tests (`checkAnswers`).
 */

type JsonSchema = Record<string, unknown>;

/**
 * The answer's JSON Schema as fast-json-stringify reads it. `additionalProperties: false` is taken off:
 * the writer names only the schema's fields anyway, and inside a union fast-json-stringify would refuse
 * an object with one field more, where zod drops the field and writes the rest.
 */
function writerSchemaOf(schema: ZodType): JsonSchema {
  const json = toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw' });
  return JSON.parse(JSON.stringify(json), (key, value: unknown) =>
    key === 'additionalProperties' && value === false ? undefined : value,
  ) as JsonSchema;
}

/** A zod schema from what a route declared for one status. */
function zodSchemaOf(declared: unknown): ZodType {
  const schema =
    declared && typeof declared === 'object' && 'properties' in declared ? declared.properties : declared;
  return schema as ZodType;
}

type Write = (data: unknown) => string;

/** One compiled writer per schema, shared by the routes that answer with it (the error body: all of them). */
const compiled = new WeakMap<ZodType, Write | 'zod'>();

/** The schema's compiled writer, or `zod` where JSON Schema cannot say the schema (a transform, a date). */
function compiledWriterOf(schema: ZodType): Write | 'zod' {
  let writer = compiled.get(schema);
  if (writer === undefined) {
    try {
      writer = fastJson(writerSchemaOf(schema)) as Write;
    } catch {
      writer = 'zod';
    }
    compiled.set(schema, writer);
  }
  return writer;
}

/**
 * Fastify's serialiser compiler for the routes' zod answers. A route's writer is compiled on its first
 * answer of that status, not as the server starts: most routes never answer most of their statuses, and
 * a start compiling them all would cost CPU and memory for nothing. A schema JSON Schema cannot say is
 * written as before, through zod.
 */
export const compiledAnswerWriter: FastifySerializerCompiler<unknown> = (route) => {
  const schema = zodSchemaOf(route.schema);
  let write: Write | undefined;
  return (data) => {
    if (write === undefined) {
      const writer = compiledWriterOf(schema);
      write = writer === 'zod' ? checkingSerializerCompiler({ ...route, schema }) : writer;
    }
    return write(data);
  };
};

/**
 * The writer tests run every answer through: the compiled one, after zod's check of the answer (one
 * outside its schema is a 500, as a client would never be sent it), and only when both write the same
 * JSON. Every route test is thus a contract test of its answers and of the compiled writer.
 */
export const checkedAnswerWriter: FastifySerializerCompiler<unknown> = (route) => {
  const schema = zodSchemaOf(route.schema);
  const compiled = compiledAnswerWriter(route);
  const checked = checkingSerializerCompiler({ ...route, schema });
  return (data) => {
    const expected = checked(data);
    const written = compiled(data);
    if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
      throw new Error(`${route.method} ${route.url}: wrote ${written} where the schema gives ${expected}`);
    }
    return written;
  };
};

/** An `onRoute` hook for tests: the route's answers go through `checkedAnswerWriter`. */
export function checkAnswers(route: RouteOptions): void {
  if (route.schema?.response) route.serializerCompiler = checkedAnswerWriter;
}
