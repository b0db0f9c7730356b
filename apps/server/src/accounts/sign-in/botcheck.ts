import { createHash } from 'node:crypto';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { verify as verifyAltchaPayload } from 'altcha-lib/frameworks/shared';
import type { BotcheckChallenge } from '@xtalk/protocol';
import type { Clock } from '../../clock.js';
import type { Db } from '../../store/index.js';

/**
 * The guest bot check. ALTCHA proof-of-work, self-hosted, by default; Cloudflare Turnstile when its keys
 * are set. A solved payload is accepted once: its id is recorded until it would have expired anyway.
 */
export interface BotCheck {
  challenge(): Promise<BotcheckChallenge>;
  /** Resolves to a stable id of the solved challenge, or throws BotCheckError with a readable reason. */
  verify(payload: string, remoteIp?: string): Promise<string>;
}

export class BotCheckError extends Error {
  /** 400: the payload is bad; 503: the verifier could not be reached (try again). */
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

const CHALLENGE_TTL_SECONDS = 600;

export function createAltchaBotCheck(options: {
  secret: string;
  cost: number;
  db: Db;
  clock: Clock;
}): BotCheck {
  const hmacSignatureSecret = `altcha:${options.secret}`;
  return {
    async challenge() {
      const challenge = await createChallenge({
        algorithm: 'SHA-256',
        // SHA-256 cost is the number of hash rounds per attempt; the work is mostly the counter search.
        cost: 1,
        counter: randomInt(Math.floor(options.cost / 2), options.cost),
        deriveKey,
        hmacSignatureSecret,
        expiresAt: Math.floor(options.clock.now() / 1000) + CHALLENGE_TTL_SECONDS,
      });
      return { provider: 'altcha', challenge: challenge as unknown as Record<string, unknown> };
    },
    async verify(payload) {
      const result = await verifyAltchaPayload(payload, deriveKey, hmacSignatureSecret);
      if (result.error || !result.verification?.verified) {
        const verification = result.verification as { expired?: boolean } | null;
        throw new BotCheckError(
          verification?.expired
            ? 'Bot check expired, please try again.'
            : `Bot check failed: ${result.error ?? 'invalid solution'}`,
        );
      }
      const solved = result.payload as {
        challenge: { signature?: string; parameters: { nonce: string; expiresAt?: number } };
      };
      const id = `altcha:${solved.challenge.signature ?? solved.challenge.parameters.nonce}`;
      const expiresAt =
        solved.challenge.parameters.expiresAt ??
        Math.floor(options.clock.now() / 1000) + CHALLENGE_TTL_SECONDS;
      await recordOnce(options.db, id, expiresAt);
      return id;
    },
  };
}

export function createTurnstileBotCheck(options: {
  siteKey: string;
  secretKey: string;
  db: Db;
  clock: Clock;
  verifyUrl?: string;
}): BotCheck {
  const verifyUrl = options.verifyUrl ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
  return {
    async challenge() {
      return { provider: 'turnstile', siteKey: options.siteKey };
    },
    async verify(payload, remoteIp) {
      const body = new URLSearchParams({ secret: options.secretKey, response: payload });
      if (remoteIp) body.set('remoteip', remoteIp);
      let outcome: { success?: boolean; 'error-codes'?: string[] };
      try {
        const response = await fetch(verifyUrl, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(10_000),
        });
        outcome = (await response.json()) as typeof outcome;
      } catch {
        throw new BotCheckError('Bot check could not be verified right now, please try again.', 503);
      }
      if (!outcome.success) {
        throw new BotCheckError(
          `Bot check failed: ${(outcome['error-codes'] ?? ['invalid token']).join(', ')}`,
        );
      }
      // Turnstile itself refuses a token twice; recording it too keeps the rule in one place.
      const id = `turnstile:${createHash('sha256').update(payload).digest('hex')}`;
      await recordOnce(options.db, id, Math.floor(options.clock.now() / 1000) + 300);
      return id;
    },
  };
}

async function recordOnce(db: Db, id: string, expiresAtSeconds: number): Promise<void> {
  const { rows } = await db.query(
    'insert into botcheck_used (id, expires_at) values ($1, $2) on conflict (id) do nothing returning id',
    [id, new Date(expiresAtSeconds * 1000)],
  );
  if (rows.length === 0) throw new BotCheckError('Bot check was already used, please solve a new one.');
}
