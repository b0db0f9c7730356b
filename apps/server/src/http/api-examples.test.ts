import type { ZodType } from 'zod';
import { describe, expect, it } from 'vitest';
import { useDocumentedServer } from '../testing/api-document.js';
import { API_EXAMPLES } from './api-examples/index.js';

/*
 * The examples of the published document: every request body and every JSON success answer shows one,
 * and each example is read back from the document and parsed by the zod schema Fastify checks that part
 * with, so an example that no longer fits its route fails here instead of misleading a client.
 */

interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Content {
  content?: Record<string, MediaType>;
}
interface JsonSchema {
  $ref?: string;
  examples?: unknown[];
}
interface Operation {
  requestBody?: Content;
  responses: Record<string, Content>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One documented part that a client sends or is answered with as JSON. */
interface Part {
  what: string;
  examples: unknown[];
  schema: ZodType | undefined;
}

describe('the examples of the OpenAPI document', () => {
  const served = useDocumentedServer<Document>();

  /** The examples a client's tools read for a media type: its own (where @fastify/swagger puts the schema's), or its schema's. */
  const examplesOf = (media: MediaType | undefined): unknown[] => {
    if (!media) return [];
    const name = media.schema?.$ref?.replace('#/components/schemas/', '');
    const schema = name ? served.document.components?.schemas?.[name] : media.schema;
    return [
      ...('example' in media ? [media.example] : []),
      ...Object.values(media.examples ?? {}).map((example) => example.value),
      ...(schema?.examples ?? []),
    ];
  };

  /** The route's own zod schema for a part: `body`, or the answer of `status`. */
  const zodSchemaOf = (path: string, method: string, part: 'body' | string): ZodType | undefined => {
    const url = path.replace(/\{(\w+)\}/g, ':$1');
    const route = served.routes.find(
      (candidate) =>
        candidate.url === url && [candidate.method].flat().some((m) => m.toLowerCase() === method),
    );
    const schema = route?.schema as
      { body?: ZodType; response?: Record<string, ZodType | undefined> } | undefined;
    return part === 'body' ? schema?.body : schema?.response?.[part];
  };

  const parts = (): Part[] => {
    const found: Part[] = [];
    for (const [path, operations] of Object.entries(served.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.requestBody) {
          found.push({
            what: `${method.toUpperCase()} ${path} body`,
            examples: examplesOf(operation.requestBody.content?.['application/json']),
            schema: zodSchemaOf(path, method, 'body'),
          });
        }
        for (const [status, response] of Object.entries(operation.responses)) {
          const json = response.content?.['application/json'];
          if (!status.startsWith('2') || !json) continue;
          found.push({
            what: `${method.toUpperCase()} ${path} ${status}`,
            examples: examplesOf(json),
            schema: zodSchemaOf(path, method, status),
          });
        }
      }
    }
    return found;
  };

  it('shows an example of every request body and every JSON success answer', () => {
    const all = parts();
    expect(all.length).toBeGreaterThan(60);
    const without = all.filter((part) => part.examples.length === 0).map((part) => part.what);
    expect(without).toEqual([]);
  });

  it("parses every example with the route's own schema for that part", () => {
    let checked = 0;
    const misfits: string[] = [];
    for (const part of parts()) {
      expect(part.schema, part.what).toBeDefined();
      for (const example of part.examples) {
        const result = part.schema!.safeParse(example);
        if (result.error) misfits.push(`${part.what}: ${JSON.stringify(result.error.issues)}`);
        checked += 1;
      }
    }
    expect(misfits).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it('names only operations the document has', () => {
    const operations = Object.entries(served.document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(Object.keys(API_EXAMPLES).filter((name) => !operations.includes(name))).toEqual([]);
  });
});
