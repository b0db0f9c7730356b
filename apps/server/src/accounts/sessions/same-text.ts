import { timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (a token, a signature, a key) are the same text, compared in time that does not
 * depend on where they differ. Only their lengths may show.
 */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
