import type { FastifyError, FastifyInstance } from 'fastify';
import { httpErrorCodeOf } from '@xtalk/protocol';
import { errorBody, schemaRefusalOf } from '@xtalk/service-base';
import { LedgerRefusal } from './ports.js';
import { StoreVerifyError } from './store-verify/verifier.js';

/*
 * Every non-2xx answer is the product's one error shape, `{statusCode, error, message, code}`. The payment
 * service's calls always carry a code of their own (a client shows it as 'API returned a non
 * success status code: {error}' with the code and status), a stable machine word so a client can tell
 * "pending, try later" from "refused for good" without parsing the message. The wallet and checkout
 * routes answer as every other route of the product: the status's code unless a finer one is given.
 */

/** An answer the service means to give; `code` undefined: the one its scope gives the status. */
export class PaymentError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A purchase where neither Stripe nor the TEST MODE checkout runs: no order is made. */
export const purchasesUnavailable = () =>
  new PaymentError(503, 'purchases_unavailable', 'Purchases are not available on this server.');

/** A refusal with no finer code than its status's. */
export const refusal = (statusCode: number, message: string) =>
  new PaymentError(statusCode, undefined, message);

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  503: 'not_configured',
};

const LEDGER_STATUS: Record<LedgerRefusal['code'], number> = {
  insufficient: 409,
  not_found: 404,
  invalid: 400,
};

/** Installs the payment service's shape on every route registered in `app`'s scope. */
export function usePaymentErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    let statusCode = 500;
    let code = 'internal';
    let message = 'Something went wrong; try again.';
    const schemaRefusal = schemaRefusalOf(error);
    if (schemaRefusal) {
      statusCode = 400;
      code = CODE_BY_STATUS[400]!;
      message = schemaRefusal.message;
    } else if (error instanceof PaymentError || error instanceof StoreVerifyError) {
      statusCode = error.statusCode;
      code = error.code ?? CODE_BY_STATUS[statusCode] ?? 'error';
      message = error.message;
    } else if (error instanceof LedgerRefusal) {
      statusCode = LEDGER_STATUS[error.code];
      code = error.code === 'insufficient' ? 'insufficient_credits' : CODE_BY_STATUS[statusCode]!;
      message = error.message;
    } else if ('statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500) {
      // Fastify's own refusals (a body that is not JSON, too large, a wrong content type) and a port's
      // (the mounting server's rate limits)
      statusCode = error.statusCode;
      code = CODE_BY_STATUS[statusCode] ?? 'invalid_request';
      message = error.message;
    }
    if (statusCode >= 500 && code === 'internal') request.log.error({ err: error }, 'payment call failed');
    void reply.status(statusCode).send(errorBody(statusCode, message, code));
  });
}

/**
 * The wallet and checkout routes' shape: a request that fails its schema or a PaymentError answers with its status's product code (or its
 * own); anything else goes on to the error handler of the scope around (the mounting server's, or the
 * standalone server's), which answers it as it answers every other route.
 */
export function useWalletErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, _request, reply) => {
    const schemaRefusal = schemaRefusalOf(error);
    if (schemaRefusal) {
      void reply.status(400).send(errorBody(400, schemaRefusal.message, httpErrorCodeOf(400)));
      return;
    }
    if (!(error instanceof PaymentError)) throw error;
    const { statusCode, message } = error;
    void reply
      .status(statusCode)
      .send(errorBody(statusCode, message, error.code ?? httpErrorCodeOf(statusCode)));
  });
}
