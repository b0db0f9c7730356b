import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request's body: multipart fields (files as {name,type,size,text}), parsed JSON, or nothing. */
export async function readRequestBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  const contentType = request.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) return readForm(raw, contentType);
  return raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
}

/** Real multipart parsing, by the platform's fetch implementation. */
async function readForm(raw: Buffer, contentType: string): Promise<Record<string, unknown>> {
  const form = await new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(raw),
  }).formData();
  const body: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    body[name] =
      typeof value === 'string'
        ? value
        : { name: value.name, type: value.type, size: value.size, text: await value.text() };
  }
  return body;
}

/** Answers with `body` as JSON. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
