import type { BrowserContext, Request, Response } from 'playwright-core';

/*
 * Every secret the browsers of a run were given or used (bearer tokens, session ids, mail link tokens,
 * OAuth codes), collected from their traffic, so that each server's log can be checked for them when the
 * server is disposed: the log of a whole run holds none of them.
 */

const issued = new Set<string>();
/** Shorter values are not secrets (a flag, a room code) and would match by chance. */
const MIN_SECRET_LENGTH = 12;
const SECRET_FIELD = /^(token|sessionId|refreshToken|code)$/;
const SECRET_QUERY = ['t', 'token', 'code', 'state'];

function keep(value: unknown) {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) issued.add(value);
}

function fromUrl(url: string) {
  const parsed = new URL(url);
  for (const key of SECRET_QUERY) keep(parsed.searchParams.get(key));
  const socketSession = /^\/xtalk_ws\/([^/]+)/.exec(parsed.pathname)?.[1];
  if (socketSession) keep(decodeURIComponent(socketSession));
}

function fromJson(value: unknown) {
  if (Array.isArray(value)) return value.forEach(fromJson);
  if (!value || typeof value !== 'object') return;
  for (const [key, field] of Object.entries(value)) {
    if (SECRET_FIELD.test(key)) keep(field);
    else fromJson(field);
  }
}

function fromRequest(request: Request) {
  fromUrl(request.url());
  keep(/^Bearer\s+(\S+)$/i.exec(request.headers().authorization ?? '')?.[1]);
}

async function fromResponse(response: Response) {
  if (!/json/.test(response.headers()['content-type'] ?? '')) return;
  // the body can be gone (a redirect, a closed page): what could not be read was not seen by the page
  fromJson(await response.json().catch(() => undefined));
}

/** Collects what a browser context is given and sends from its first page on. */
export function watchIssuedSecrets(context: BrowserContext) {
  context.on('request', fromRequest);
  context.on('response', (response) => void fromResponse(response));
  context.on('page', (page) => page.on('websocket', (socket) => fromUrl(socket.url())));
}

/** Throws when a server's log holds any secret issued so far. */
export function assertNoIssuedSecretsIn(log: string) {
  const leaked = [...issued].filter((secret) => log.includes(secret));
  if (leaked.length > 0) throw new Error(`secrets written to the server log: ${leaked.join(', ')}`);
}
