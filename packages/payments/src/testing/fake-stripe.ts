import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * Just enough of Stripe's API for tests, over real HTTP: POST /v1/checkout/sessions, form-encoded as the
 * SDK sends it. Point the server at it with STRIPE_API_URL. `signedEvent` builds a webhook delivery signed
 * with the SDK's own test-header helper.
 */

export interface CreateRequest {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

/** Just enough of Stripe's API: POST /v1/checkout/sessions (form-encoded, as the SDK sends it). */
export async function startFakeStripe() {
  const requests: CreateRequest[] = [];
  let failNext = false;
  let count = 0;
  const read = async (request: IncomingMessage) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    return body;
  };
  const server: Server = createServer((request, response) => {
    void read(request).then((body) => {
      response.setHeader('content-type', 'application/json');
      if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
        response.statusCode = 404;
        response.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }),
        );
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({
        authorization: request.headers.authorization,
        idempotencyKey: request.headers['idempotency-key'] as string | undefined,
        form,
      });
      if (failNext) {
        failNext = false;
        response.statusCode = 400;
        response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Bad things' } }));
        return;
      }
      count += 1;
      const id = `cs_test_${count}`;
      response.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          metadata: { orderId: form['metadata[orderId]'] },
          payment_status: 'unpaid',
          status: 'open',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failOnce: () => {
      failNext = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

const signer = new Stripe('sk_test_signer_only');

/** A Stripe event's JSON, as a webhook delivers it. */
export function stripeEvent(
  type: string,
  session: Record<string, unknown>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object: { object: 'checkout.session', ...session } },
  });
}

/** The Stripe-Signature header for `payload` under `secret`. */
export function stripeSignature(payload: string, secret: string): string {
  return signer.webhooks.generateTestHeaderString({ payload, secret });
}
