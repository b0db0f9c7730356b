import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { sameText } from './same-text.js';

/*
 * Compact HS256 JWTs, signed and checked synchronously with node:crypto (decision 0114). Every
 * socket's token is checked on the connect path; WebCrypto's HMAC (what jose uses) runs as an async job
 * on the thread pool and costs far more CPU per check than a synchronous HMAC. The tokens are the same
 * as jose's SignJWT made (header {"alg":"HS256"}, the same claims in the same order), and a token is
 * refused exactly when jose's jwtVerify with the options tokens.ts used refused it (auth/jwt-hs256.test.ts
 * checks both against jose): the alg must be HS256, the signature valid, iss and aud ours, exp (a number)
 * in the future, iat and nbf numbers when present and nbf not in the future. A `crit` header (an
 * extension we do not implement) is refused, as jose refuses unknown ones.
 */

export type JwtPayload = Record<string, unknown>;

export type JwtVerdict =
  { ok: true; payload: JwtPayload } | { ok: false; reason: 'invalid' | 'expired' | 'claims' };

export interface JwtChecks {
  issuer: string;
  audience: string;
  /** Seconds since the epoch. */
  now: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

function signatureOf(key: KeyObject, signingInput: string): string {
  return createHmac('sha256', key).update(signingInput).digest('base64url');
}

export function signJwt(key: KeyObject, payload: JwtPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signingInput = `${HEADER}.${body}`;
  return `${signingInput}.${signatureOf(key, signingInput)}`;
}

/** Parses a base64url JSON object segment; undefined when it is not one. */
function jsonObjectOf(segment: string): JwtPayload | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JwtPayload)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Compares the signature as text: the base64url of the HMAC has one spelling, any other is refused. */
function signatureMatches(key: KeyObject, signingInput: string, signature: string): boolean {
  return sameText(signatureOf(key, signingInput), signature);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function claimsVerdict(payload: JwtPayload, checks: JwtChecks): JwtVerdict {
  const { iat, nbf, exp, iss, aud } = payload;
  if (iat !== undefined && !isNumber(iat)) return { ok: false, reason: 'claims' };
  if (nbf !== undefined && (!isNumber(nbf) || nbf > checks.now)) return { ok: false, reason: 'claims' };
  if (exp !== undefined && !isNumber(exp)) return { ok: false, reason: 'claims' };
  if (iss !== checks.issuer) return { ok: false, reason: 'claims' };
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(checks.audience)) return { ok: false, reason: 'claims' };
  if (isNumber(exp) && exp <= checks.now) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}

/** Checks a compact HS256 JWT; the payload is trusted only when `ok`. */
export function verifyJwt(key: KeyObject, token: string, checks: JwtChecks): JwtVerdict {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [headerPart, payloadPart, signature] = parts as [string, string, string];
  const header = jsonObjectOf(headerPart);
  if (!header || header.alg !== 'HS256' || header.crit !== undefined) return { ok: false, reason: 'invalid' };
  if (!signatureMatches(key, `${headerPart}.${payloadPart}`, signature))
    return { ok: false, reason: 'invalid' };
  const payload = jsonObjectOf(payloadPart);
  if (!payload) return { ok: false, reason: 'invalid' };
  return claimsVerdict(payload, checks);
}
