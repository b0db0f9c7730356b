import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { refusal } from './errors.js';

/*
 * The payment service's two shared secrets: the server key (PAYMENT_SERVER_KEY, header X-Server-Key)
 * for other servers, and the admin key (ADMIN_API_KEY, header X-Admin-Key, as the player API).
 * Missing header: 401; wrong key: 403; a key the operator never set: 503, so a caller can tell "you are
 * not allowed" from "this server does not offer it".
 */

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares the digests, so neither the content nor the length of the key leaks through timing. */
function sameKey(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

/** Runs before the request's schema is checked: a caller without the key learns nothing of the body's rules. */
export type KeyCheck = (request: FastifyRequest) => Promise<void>;

export function keyCheck(options: {
  header: 'x-server-key' | 'x-admin-key';
  key: string | undefined;
  /** How the key is called in messages and which setting enables it. */
  name: string;
  setting: string;
}): KeyCheck {
  const expected = options.key ? digest(options.key) : undefined;
  const headerName = options.header === 'x-server-key' ? 'X-Server-Key' : 'X-Admin-Key';
  return async (request) => {
    if (!expected) {
      throw refusal(
        503,
        `${options.name} calls are not enabled on this server (${options.setting} is not set).`,
      );
    }
    const given = request.headers[options.header];
    if (typeof given !== 'string' || given === '') {
      throw refusal(401, `The ${headerName} header is required.`);
    }
    if (!sameKey(given, expected)) throw refusal(403, `The ${headerName} header is not valid.`);
  };
}
