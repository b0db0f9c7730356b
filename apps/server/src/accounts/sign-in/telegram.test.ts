import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInResponseSchema } from '@xtalk/protocol';
import { startServer, type TestServer } from '../../testing/harness.js';

/*
 * Telegram sign-in through the token endpoint with hashes made here by Telegram's documented rules:
 * Login Widget (tgw) and Mini App initData (tga): good, tampered, stale; tga without data.bot refused.
 */

const BOT_TOKEN = '123456:TEST-bot-token-for-xtalk';

function checkString(fields: Record<string, string>): string {
  return Object.keys(fields)
    .filter((key) => key !== 'hash')
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
}

/** What the Login Widget hands the page. */
function widgetData(fields: Record<string, string>, botToken = BOT_TOKEN): Record<string, string> {
  const key = createHash('sha256').update(botToken).digest();
  return { ...fields, hash: createHmac('sha256', key).update(checkString(fields)).digest('hex') };
}

/** What a Mini App gets as Telegram.WebApp.initData. */
function initData(fields: Record<string, string>, botToken = BOT_TOKEN): string {
  const key = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const hash = createHmac('sha256', key).update(checkString(fields)).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

describe('Telegram sign-in (tgw, tga)', () => {
  let server: TestServer;
  let offsetMs = 0;
  const clock = { now: () => Date.now() + offsetMs };
  const nowSeconds = () => String(Math.floor(Date.now() / 1000));

  beforeAll(async () => {
    server = await startServer({ TELEGRAM_BOT_TOKEN: BOT_TOKEN }, { clock });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    offsetMs = 0;
  });

  const token = (body: object) =>
    server.app.inject({ method: 'POST', url: '/api/auth/token', payload: body });
  const tgw = (data: object) =>
    token({ app_id: 'xtalk', platform: 'tg', identity_provider: 'tgw', platform_player_id: '', data });
  const tga = (payload: string, data: object = { bot: 'xtalk_bot' }) =>
    token({ app_id: 'xtalk', platform: 'tg', identity_provider: 'tga', payload, data });

  it('widget: signs in with good data, the same player again, and uses the Telegram name', async () => {
    const data = widgetData({ id: '4242', first_name: 'Taro', last_name: 'Yamada', auth_date: nowSeconds() });
    const first = await tgw(data);
    expect(first.statusCode, first.body).toBe(200);
    const session = signInResponseSchema.parse(first.json());
    expect(session.user.name).toBe('Taro Yamada');
    const again = signInResponseSchema.parse((await tgw(data)).json());
    expect(again.user.userId).toBe(session.user.userId);
  });

  it('widget: refuses tampered data, another bot, and stale data', async () => {
    const data = widgetData({ id: '4343', first_name: 'Hana', auth_date: nowSeconds() });
    const tampered = await tgw({ ...data, id: '1' });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().message).toMatch(/not signed by our bot/);
    const otherBot = await tgw(widgetData({ id: '4343', auth_date: nowSeconds() }, '999:other-bot'));
    expect(otherBot.statusCode).toBe(401);
    offsetMs = 25 * 3600_000;
    const stale = await tgw(data);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toMatch(/too old/);
  });

  it('refuses data dated more than five minutes ahead, widget and Mini App alike', async () => {
    const ahead = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);
    const future = await tgw(widgetData({ id: '4444', auth_date: ahead(10 * 60) }));
    expect(future.statusCode).toBe(401);
    expect(future.json().message).toMatch(/dated in the future/);
    const user = JSON.stringify({ id: 4445, first_name: 'Kei' });
    expect((await tga(initData({ user, auth_date: ahead(6 * 60) }))).statusCode).toBe(401);
    // a clock a little behind Telegram's is no reason to refuse
    expect((await tgw(widgetData({ id: '4446', auth_date: ahead(60) }))).statusCode).toBe(200);
  });

  it('Mini App: signs in with good initData; refuses tampered, stale, and missing bot or payload', async () => {
    const user = JSON.stringify({ id: 5151, first_name: 'Mika' });
    const good = initData({ query_id: 'AAE', user, auth_date: nowSeconds() });
    const response = await tga(good);
    expect(response.statusCode, response.body).toBe(200);
    expect(signInResponseSchema.parse(response.json()).user.name).toBe('Mika');
    // the widget and the Mini App are one Telegram account: same player
    const viaWidget = signInResponseSchema.parse(
      (await tgw(widgetData({ id: '5151', first_name: 'Mika', auth_date: nowSeconds() }))).json(),
    );
    expect(viaWidget.user.userId).toBe(signInResponseSchema.parse(response.json()).user.userId);

    const tampered = await tga(good.replace('5151', '5152'));
    expect(tampered.statusCode).toBe(401);
    expect((await tga(good, { bot: '' })).statusCode).toBe(400);
    expect((await tga(good, {})).statusCode).toBe(400);
    expect((await tga('')).statusCode).toBe(400);
    offsetMs = 25 * 3600_000;
    expect((await tga(good)).statusCode).toBe(401);
  });

  it('tgw and tga belong to platform tg', async () => {
    const data = widgetData({ id: '6000', auth_date: nowSeconds() });
    const response = await token({ app_id: 'xtalk', platform: 'web', identity_provider: 'tgw', data });
    expect(response.statusCode).toBe(400);
  });
});

describe('Telegram sign-in without TELEGRAM_BOT_TOKEN', () => {
  it('says it is not configured', async () => {
    const server = await startServer();
    try {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: {
          app_id: 'xtalk',
          platform: 'tg',
          identity_provider: 'tgw',
          data: widgetData({ id: '1', auth_date: '1' }),
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Telegram sign-in is not configured on this server.');
    } finally {
      await server.close();
    }
  });
});
