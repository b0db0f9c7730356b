import type { FastifyRequest } from 'fastify';
import type { Balance, ServerWallet, Txn, TxnKind, TxnListQuery } from '@xtalk/protocol';
import type { LedgerEntry, LedgerResult, Queryable } from '@xtalk/service-base';

/*
 * What the payment service needs from whoever mounts it, and nothing more: a database, the time, a
 * ledger of credits, who a request's user is and whether a player exists. XTalk's server passes its
 * own (its ledger, its authenticator); the standalone entry passes the package's (standalone/).
 */

/** One connection's statements, inside a transaction or not. */
export type { Queryable } from '@xtalk/service-base';

/** PGlite or PostgreSQL: the service's tables live here (schema.ts). */
export interface Db {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Row[] }>;
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** Time as the service's rules see it; tests pass their own. */
export interface Clock {
  now(): number;
}

export type BalancePart = 'free' | 'premium';

// a ledger's entry and result as both ledgers write them (`@xtalk/service-base`)
export type { LedgerEntry, LedgerResult } from '@xtalk/service-base';

export type SpendResult = ({ ok: true } & LedgerResult) | { ok: false; balance: Balance; needed: number };

/**
 * A refusal of the ledger: not enough credits, a row that is not there, a change that makes no sense.
 * The port's implementation throws it (XTalk's server maps its own ledger's errors to it); the service
 * answers it as a 409, 404 or 400.
 */
export class LedgerRefusal extends Error {
  constructor(
    readonly code: 'insufficient' | 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'LedgerRefusal';
  }
}

/** The ledger calls the payment service makes: append-only, idempotent, never below zero. */
export interface LedgerPort {
  /** The balance now. */
  balance(userId: string): Promise<Balance>;
  credit(
    entry: LedgerEntry & {
      amount: number;
      part: BalancePart;
      kind?: Extract<TxnKind, 'purchase' | 'adjustment'>;
    },
  ): Promise<LedgerResult>;
  /** Takes `amount`, free first then premium, or nothing when the balance does not cover it. */
  spend(entry: LedgerEntry & { amount: number }): Promise<SpendResult>;
  /** A signed change of either part; refused when it would overdraw. */
  adjust(entry: LedgerEntry & { free?: number; premium?: number }): Promise<LedgerResult>;
  /** A new row undoing `txnId` exactly; refused when it would overdraw. */
  reverse(entry: LedgerEntry & { txnId: string; kind?: Extract<TxnKind, 'reversal'> }): Promise<LedgerResult>;
  /** Newest first. */
  list(userId: string, query: TxnListQuery): Promise<Txn[]>;
  /** The row an idempotency key made, if any. */
  findByKey(userId: string, key: string): Promise<Txn | undefined>;
  /** Accounts whose total (or one part) lies in [min, max], largest first. */
  filterByBalance(query: {
    min?: number | undefined;
    max?: number | undefined;
    part: 'free' | 'premium' | 'total';
    limit: number;
    page: number;
  }): Promise<ServerWallet[]>;
}

/** The signed-in user of a wallet call. */
export interface PaymentUser {
  id: string;
  /** Guests see their balance but neither buy nor withdraw. */
  guest: boolean;
}

/** Resolves a session to its user, or throws an error with a 401 `statusCode`. */
export interface AuthenticatorPort {
  /** The request's bearer session. */
  fromRequest(request: FastifyRequest): Promise<PaymentUser>;
  /** A session token that came another way (the TEST MODE checkout's cookie). */
  fromToken(token: string): Promise<PaymentUser>;
}

/** Whether a player exists: server calls name players by id and must not invent accounts. */
export interface UsersPort {
  exists(userId: string): Promise<boolean>;
}
