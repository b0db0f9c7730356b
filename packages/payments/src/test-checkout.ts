import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiPath, PRODUCT_NAME } from '@xtalk/protocol';
import { checkoutSessionToken } from './checkout-session.js';
import { landingStatus, publicBase, returnUrl } from './checkout-urls.js';
import type { CreditOrder } from './crediting.js';
import type { Order, OrdersRepo } from './orders-repo.js';
import type { AuthenticatorPort, PaymentUser } from './ports.js';

/*
 * The built-in checkout of test mode (no Stripe configured and TEST_CHECKOUT on): a page served by this
 * server, marked TEST MODE where nobody can miss it, whose Pay credits the order through the same path a
 * verified webhook takes and whose Cancel cancels it; both then land on the web app's /checkout page. Plain
 * HTML forms, so it works in any window without the app's JavaScript. Pay and Cancel take the session of
 * the order's owner (checkout-session.ts), never the order id alone. Only orders made in test mode are
 * payable here; with Stripe configured, or TEST_CHECKOUT off, these routes do not exist.
 */

export interface TestCheckoutDeps {
  orders: OrdersRepo;
  creditOrder: CreditOrder;
  authenticator: AuthenticatorPort;
  publicUrl: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/*
 * The page speaks the buyer's language like the rest of the app: `?lang=` (the web app adds its interface
 * language when it opens this page), else the browser's Accept-Language, else English. TEST MODE itself
 * stays in English too, the words a developer searches for.
 */
type PageLanguage = 'en' | 'ja';
const WORDS = {
  en: {
    credits: (count: string) => `${count} credits`,
    banner: 'TEST MODE',
    note:
      '<strong>TEST MODE:</strong> this server has no payment provider configured, so no money is taken. ' +
      'Pay credits the order exactly as a real payment would; Cancel cancels it.',
    pay: 'Pay',
    cancel: 'Cancel',
    order: 'Order',
    notFoundTitle: 'Not found',
    notFound: 'No such test order.',
    signInTitle: 'Sign in first',
    signIn: 'Pay and Cancel need the session of the player who placed this order: buy again from XTalk.',
    notYoursTitle: 'Not your order',
    notYours: 'This order belongs to another player.',
  },
  ja: {
    credits: (count: string) => `${count} クレジット`,
    banner: 'TEST MODE · テストモード',
    note:
      '<strong>テストモード:</strong> このサーバーには決済サービスが設定されていないため、料金は発生しません。' +
      '「支払う」は実際の支払いと同じように注文にクレジットを付与し、「キャンセル」は注文を取り消します。',
    pay: '支払う',
    cancel: 'キャンセル',
    order: '注文',
    notFoundTitle: '見つかりません',
    notFound: 'そのテスト注文はありません。',
    signInTitle: 'ログインが必要です',
    signIn:
      '「支払う」と「キャンセル」には、この注文をしたプレイヤーのセッションが必要です。XTalk からもう一度購入してください。',
    notYoursTitle: 'あなたの注文ではありません',
    notYours: 'この注文は別のプレイヤーのものです。',
  },
} as const;

export function pageLanguage(request: FastifyRequest): PageLanguage {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  if (asked === 'ja' || asked === 'en') return asked;
  // the first of ja and en in the browser's order of preference (q values, then order)
  const ranked = String(request.headers['accept-language'] ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = Number(
        params
          .find((param) => param.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { base: tag.split('-')[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0 && (entry.base === 'ja' || entry.base === 'en'))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.base === 'ja' ? 'ja' : 'en';
}

function page(language: PageLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
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
<div class="banner" role="alert">${WORDS[language].banner}</div>
<main>${body}</main>
</body>
</html>`;
}

function orderPage(order: Order, language: PageLanguage): string {
  const words = WORDS[language];
  const locale = language === 'ja' ? 'ja-JP' : 'en-US';
  const credits = words.credits(order.amount.toLocaleString(locale));
  const price = `¥${order.priceJpy.toLocaleString(locale)}`;
  const id = encodeURIComponent(order.id);
  return page(
    language,
    credits,
    `<h1>${PRODUCT_NAME}: ${escapeHtml(credits)}</h1>
<div class="price">${escapeHtml(price)}</div>
<p class="note">${words.note}</p>
<div class="actions">
  <form method="post" action="${ApiPath.testCheckoutPay(order.id)}"><button class="pay" type="submit">${words.pay}</button></form>
  <form method="post" action="${ApiPath.testCheckoutCancel(order.id)}"><button class="cancel" type="submit">${words.cancel}</button></form>
</div>
<p class="note">${words.order} ${escapeHtml(id)}</p>`,
  );
}

/** The authenticator's refusal of a token (a 401) as no user; any other failure goes on. */
function notASession(error: unknown): undefined {
  if ((error as { statusCode?: unknown } | null)?.statusCode === 401) return undefined;
  throw error;
}

/** The ApiPath of an order as a route pattern (ApiPath encodes its argument, so ':' cannot go through it). */
const route = (path: (orderId: string) => string) => path('ORDER_ID').replace('ORDER_ID', ':orderId');

export async function testCheckoutRoutes(app: FastifyInstance, deps: TestCheckoutDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // TEST MODE pages for a browser, not calls for a client: left out of the published document
  const hidden = { hide: true, params: z.object({ orderId: z.string().min(1).max(100) }) };
  // The forms post an empty urlencoded body; nothing in it is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, _body, done) =>
    done(null, {}),
  );

  async function testOrder(
    orderId: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Order | undefined> {
    const order = await deps.orders.find(orderId);
    if (order && order.provider === 'test') return order;
    const language = pageLanguage(request);
    const words = WORDS[language];
    reply.code(404).type('text/html; charset=utf-8');
    await reply.send(page(language, words.notFoundTitle, `<h1>${words.notFound}</h1>`));
    return undefined;
  }

  /** Whether the request carries the session of the order's owner; answers a page saying why not. */
  async function ownerAsks(order: Order, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const token = checkoutSessionToken(request);
    let user: PaymentUser | undefined;
    // a token that is no session (forged, expired, ended) is as good as none; anything else is a fault
    if (token) user = await deps.authenticator.fromToken(token).catch(notASession);
    if (user?.id === order.userId) return true;
    const language = pageLanguage(request);
    const words = WORDS[language];
    const [title, text] = user ? [words.notYoursTitle, words.notYours] : [words.signInTitle, words.signIn];
    reply.code(user ? 403 : 401).type('text/html; charset=utf-8');
    await reply.send(page(language, title, `<h1>${title}</h1><p class="note">${text}</p>`));
    return false;
  }

  api.get(route(ApiPath.testCheckout), { schema: hidden }, async (request, reply) => {
    const order = await testOrder(request.params.orderId, request, reply);
    if (!order) return reply;
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    const done = landingStatus(order.status);
    if (done) return reply.redirect(returnUrl(publicBase(deps.publicUrl), done, order.id), 303);
    return orderPage(order, pageLanguage(request));
  });

  api.post(route(ApiPath.testCheckoutPay), { schema: hidden }, async (request, reply) => {
    const order = await testOrder(request.params.orderId, request, reply);
    if (!order || !(await ownerAsks(order, request, reply))) return reply;
    const base = publicBase(deps.publicUrl);
    if (order.status === 'canceled') return reply.redirect(returnUrl(base, 'canceled', order.id), 303);
    await deps.creditOrder(order.id, 'test-checkout');
    return reply.redirect(returnUrl(base, 'success', order.id), 303);
  });

  api.post(route(ApiPath.testCheckoutCancel), { schema: hidden }, async (request, reply) => {
    const order = await testOrder(request.params.orderId, request, reply);
    if (!order || !(await ownerAsks(order, request, reply))) return reply;
    const base = publicBase(deps.publicUrl);
    await deps.orders.cancelPending(order.id);
    const after = (await deps.orders.find(order.id))?.status ?? 'canceled';
    return reply.redirect(returnUrl(base, landingStatus(after) ?? 'canceled', order.id), 303);
  });
}
