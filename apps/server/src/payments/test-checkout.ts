import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiPath, PRODUCT_NAME } from '@xtalk/protocol';
import { landingStatus, publicBase, returnUrl } from './checkout-urls.js';
import type { CreditOrder } from './crediting.js';
import type { Order, OrdersRepo } from './orders-repo.js';

/*
 * The built-in checkout of test mode (no Stripe configured; the embedded default): a page served by this
 * server, marked TEST MODE where nobody can miss it, whose Pay credits the order through the same path a
 * verified webhook takes and whose Cancel cancels it; both then land on the web app's /checkout page. Plain
 * HTML forms, so it works in any window without the app's JavaScript. Only orders made in test mode are
 * payable here; with Stripe configured these routes do not exist.
 */

export interface TestCheckoutDeps {
  orders: OrdersRepo;
  creditOrder: CreditOrder;
  publicUrl: string | undefined;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>TEST MODE · ${escapeHtml(title)}</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; }
  .banner { background: #b91c1c; color: #fff; text-align: center; font-weight: 800; font-size: 1.5rem;
    letter-spacing: .15em; padding: .9rem 1rem; }
  main { width: min(26rem, calc(100% - 2rem)); box-sizing: border-box; margin: 2rem auto; padding: 1.5rem;
    background: #fff; border-radius: .75rem;
    box-shadow: 0 1px 4px rgb(0 0 0 / .12); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  .price { font-size: 2rem; font-weight: 700; margin: .25rem 0 1rem; }
  .note { color: #475569; font-size: .9rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  .actions form { flex: 1; }
  button { width: 100%; font-size: 1.05rem; padding: .75rem; border-radius: .5rem; border: 0; cursor: pointer; }
  .pay { background: #16a34a; color: #fff; font-weight: 700; }
  .cancel { background: #e2e8f0; color: #0f172a; }
  @media (prefers-color-scheme: dark) {
    body { background: #0f172a; color: #e2e8f0; } main { background: #1e293b; }
    .note { color: #94a3b8; } .cancel { background: #334155; color: #e2e8f0; }
  }
</style>
</head>
<body>
<div class="banner" role="alert">TEST MODE</div>
<main>${body}</main>
</body>
</html>`;
}

function orderPage(order: Order): string {
  const credits = order.amount.toLocaleString('en-US');
  const price = `¥${order.priceJpy.toLocaleString('en-US')}`;
  const id = encodeURIComponent(order.id);
  return page(
    `${credits} credits`,
    `<h1>${PRODUCT_NAME}: ${credits} credits</h1>
<div class="price">${escapeHtml(price)}</div>
<p class="note"><strong>TEST MODE:</strong> this server has no payment provider configured, so no money is
taken. Pay credits the order exactly as a real payment would; Cancel cancels it.</p>
<div class="actions">
  <form method="post" action="${ApiPath.testCheckoutPay(order.id)}"><button class="pay" type="submit">Pay</button></form>
  <form method="post" action="${ApiPath.testCheckoutCancel(order.id)}"><button class="cancel" type="submit">Cancel</button></form>
</div>
<p class="note">Order ${escapeHtml(id)}</p>`,
  );
}

/** The ApiPath of an order as a route pattern (ApiPath encodes its argument, so ':' cannot go through it). */
const route = (path: (orderId: string) => string) => path('ORDER_ID').replace('ORDER_ID', ':orderId');

export async function testCheckoutRoutes(app: FastifyInstance, deps: TestCheckoutDeps) {
  // The forms post an empty urlencoded body; nothing in it is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, _body, done) =>
    done(null, {}),
  );

  async function testOrder(orderId: string, reply: FastifyReply): Promise<Order | undefined> {
    const order = await deps.orders.find(orderId);
    if (order && order.provider === 'test') return order;
    reply.code(404).type('text/html; charset=utf-8');
    await reply.send(page('Not found', '<h1>No such test order.</h1>'));
    return undefined;
  }

  app.get<{ Params: { orderId: string } }>(route(ApiPath.testCheckout), async (request, reply) => {
    const order = await testOrder(request.params.orderId, reply);
    if (!order) return reply;
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    const done = landingStatus(order.status);
    if (done) return reply.redirect(returnUrl(publicBase(deps.publicUrl, request), done, order.id), 303);
    return orderPage(order);
  });

  app.post<{ Params: { orderId: string } }>(route(ApiPath.testCheckoutPay), async (request, reply) => {
    const order = await testOrder(request.params.orderId, reply);
    if (!order) return reply;
    const base = publicBase(deps.publicUrl, request);
    if (order.status === 'canceled') return reply.redirect(returnUrl(base, 'canceled', order.id), 303);
    await deps.creditOrder(order.id, 'test-checkout');
    return reply.redirect(returnUrl(base, 'success', order.id), 303);
  });

  app.post<{ Params: { orderId: string } }>(route(ApiPath.testCheckoutCancel), async (request, reply) => {
    const order = await testOrder(request.params.orderId, reply);
    if (!order) return reply;
    const base = publicBase(deps.publicUrl, request);
    await deps.orders.cancelPending(order.id);
    const after = (await deps.orders.find(order.id))?.status ?? 'canceled';
    return reply.redirect(returnUrl(base, landingStatus(after) ?? 'canceled', order.id), 303);
  });
}
