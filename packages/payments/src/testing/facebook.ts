import { createHmac } from 'node:crypto';

/** A Facebook `signed_request` as Facebook makes it: base64url(HMAC-SHA256(payload part)) '.' payload part. */
export function signRequest(payload: Record<string, unknown>, appSecret: string): string {
  const body = Buffer.from(
    JSON.stringify({ algorithm: 'HMAC-SHA256', issued_at: 1763856000, ...payload }),
  ).toString('base64url');
  const signature = createHmac('sha256', appSecret).update(body).digest('base64url');
  return `${signature}.${body}`;
}
