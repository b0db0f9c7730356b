import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { LedgerError } from '../credits/index.js';
import { HttpError } from '../http-errors.js';
import { StoreVerifyError } from './store-verify/verifier.js';

/*
 * Every non-2xx answer of the payment service is `{statusCode, error, message, code}`: the usual Fastify
 * shape (the client shows it as spec section 8's 'API returned a non success status code: {error}' with
 * the code and status) plus a stable machine word, so a client can tell "pending, try later" from
 * "refused for good" without parsing the message.
 */

export class PaymentError extends HttpError {
  constructor(statusCode: number, code: string, message: string) {
    super(statusCode, message, code);
  }
}

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

const LEDGER_STATUS: Record<LedgerError['code'], number> = {
  insufficient: 409,
  not_found: 404,
  invalid: 400,
};

/** Installs the shape on every route registered in `app`'s scope (the payments plugins). */
export function usePaymentErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    let statusCode = 500;
    let code = 'internal';
    let message = 'Something went wrong; try again.';
    if (error instanceof PaymentError || error instanceof StoreVerifyError) {
      ({ statusCode, code, message } = error);
    } else if (error instanceof LedgerError) {
      statusCode = LEDGER_STATUS[error.code];
      code = error.code === 'insufficient' ? 'insufficient_credits' : CODE_BY_STATUS[statusCode]!;
      message = error.message;
    } else if (error instanceof HttpError) {
      statusCode = error.statusCode;
      code = CODE_BY_STATUS[statusCode] ?? 'error';
      message = error.message;
    } else if ('statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500) {
      // Fastify's own refusals: a body that is not JSON, too large, a wrong content type
      statusCode = error.statusCode;
      code = CODE_BY_STATUS[statusCode] ?? 'invalid_request';
      message = error.message;
    }
    if (statusCode >= 500 && code === 'internal') request.log.error({ err: error }, 'payment call failed');
    void reply
      .status(statusCode)
      .send({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, code });
  });
}
