import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape, scrapeUntil } from '../testing/metrics-scrape.js';
import { parsePrometheusText, valueOf } from '../testing/prometheus-text.js';
import {
  TestClient,
  guestLogin,
  roomBarrier,
  speakerAndListener,
  startServer,
  type TestServer,
} from '../testing/harness.js';

/* GET /metrics: the exposition parses strictly, each family moves with what it counts, and who may read it. */

describe('GET /metrics', () => {
  let server: TestServer;
  // a loaded machine takes a while to start the first app of a file
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  it('answers every family in the strict text format, with process and Node metrics', async () => {
    const families = await scrape(server.app);
    const expected = {
      xtalk_ws_connections: 'gauge',
      xtalk_rooms_active: 'gauge',
      xtalk_messages_total: 'counter',
      xtalk_deliveries_total: 'counter',
      xtalk_delivery_seconds: 'histogram',
      xtalk_ai_seconds: 'histogram',
      xtalk_ai_failures_total: 'counter',
      xtalk_credits_spent_total: 'counter',
      xtalk_frames_refused_total: 'counter',
      xtalk_bus_up: 'gauge',
      xtalk_db_up: 'gauge',
      http_request_duration_seconds: 'histogram',
      process_cpu_seconds_total: 'counter',
      nodejs_eventloop_lag_seconds: 'gauge',
    };
    for (const [name, type] of Object.entries(expected)) expect(families.get(name)?.type, name).toBe(type);
    expect(valueOf(families, 'xtalk_bus_up')).toBe(1);
    expect(valueOf(families, 'xtalk_db_up')).toBe(1);
    for (const task of ['translate', 'transcribe', 'speak', 'note'])
      expect(families.get('xtalk_ai_failures_total')!.samples.map((s) => s.labels.task)).toContain(task);
  });

  it('counts a chat message: stored, delivered to each socket, its delivery time, its AI work and credits', async () => {
    const before = await scrape(server.app);
    const { roomId, speaker, listener } = await speakerAndListener(server);
    const joined = await scrape(server.app);
    expect(valueOf(joined, 'xtalk_ws_connections')).toBe(valueOf(before, 'xtalk_ws_connections') + 2);
    expect(valueOf(joined, 'xtalk_rooms_active')).toBe(valueOf(before, 'xtalk_rooms_active') + 1);

    speaker.send({ type: 'chat', language: 'en', message: 'hello metrics', room: roomId, clientId: 'm-1' });
    await listener.next((frame) => frame.type === 'message' && frame.message === 'hello metrics');
    await speaker.next((frame) => frame.type === 'message' && frame.message === 'hello metrics');
    const after = await scrapeUntil(
      server.app,
      (f) =>
        valueOf(f, 'xtalk_ai_seconds_count', { task: 'translate' }) >
        valueOf(joined, 'xtalk_ai_seconds_count', { task: 'translate' }),
    );
    const moved = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(joined, name, labels);
    expect(moved('xtalk_messages_total', { kind: 'text' })).toBe(1);
    expect(moved('xtalk_messages_total', { kind: 'voice' })).toBe(0);
    // the message frame to both sockets, at least
    expect(moved('xtalk_deliveries_total')).toBeGreaterThanOrEqual(2);
    expect(moved('xtalk_delivery_seconds_count')).toBe(1);
    expect(moved('xtalk_ai_seconds_count', { task: 'translate' })).toBeGreaterThanOrEqual(1);
    expect(moved('xtalk_credits_spent_total')).toBeGreaterThan(0);
    speaker.close();
    listener.close();
  });

  it('counts refused frames by reason: invalid, and over the rate limit', async () => {
    const login = await guestLogin(server.app);
    const { roomId } = await (await import('../testing/harness.js')).joinRoom(server.app, login.token, null);
    const client = await TestClient.join(server, login, roomId);
    const before = await scrape(server.app);
    client.send('not json');
    await client.nextNew((frame) => frame.type === 'error');
    const invalid = await scrape(server.app);
    expect(valueOf(invalid, 'xtalk_frames_refused_total', { reason: 'invalid' })).toBe(
      valueOf(before, 'xtalk_frames_refused_total', { reason: 'invalid' }) + 1,
    );
    // the chat burst is 8: the ninth at once is refused with rate_limited
    for (let i = 0; i < 12; i++)
      client.send({ type: 'chat', language: 'en', message: `m${i}`, room: roomId });
    await client.nextNew((frame) => frame.type === 'error' && frame.code === 'rate_limited');
    const limited = await scrape(server.app);
    expect(valueOf(limited, 'xtalk_frames_refused_total', { reason: 'rate_limited' })).toBeGreaterThan(
      valueOf(before, 'xtalk_frames_refused_total', { reason: 'rate_limited' }),
    );
    client.close();
  });

  it('counts a failed AI call by task', async () => {
    const { roomId, speaker, listener } = await speakerAndListener(server);
    const before = await scrape(server.app);
    speaker.send({ type: 'chat', language: 'en', message: 'this one will !fail', room: roomId });
    await roomBarrier(speaker, roomId, [listener]);
    const after = await scrapeUntil(
      server.app,
      (f) =>
        valueOf(f, 'xtalk_ai_failures_total', { task: 'translate' }) >
        valueOf(before, 'xtalk_ai_failures_total', { task: 'translate' }),
    );
    expect(valueOf(after, 'xtalk_ai_failures_total', { task: 'translate' })).toBeGreaterThan(
      valueOf(before, 'xtalk_ai_failures_total', { task: 'translate' }),
    );
    expect(valueOf(after, 'xtalk_ai_failures_total', { task: 'note' })).toBe(
      valueOf(before, 'xtalk_ai_failures_total', { task: 'note' }),
    );
    speaker.close();
    listener.close();
  });

  it('labels HTTP requests by route pattern, never the raw URL', async () => {
    const secretish = 'pl4yer-id-that-must-not-be-a-label';
    const reply = await server.app.inject({ url: `/api/player/${secretish}` });
    expect(reply.statusCode).toBeGreaterThanOrEqual(400);
    const text = (await server.app.inject({ url: '/metrics' })).body;
    expect(text).not.toContain(secretish);
    const families = parsePrometheusText(text);
    const routes = families.get('http_request_duration_seconds')!.samples.map((s) => s.labels.route);
    expect(routes).toContain('/api/player/:id');
  });

  it('answers a scraper elsewhere 404 without a token, and one behind a proxy on this machine too', async () => {
    const remote = await server.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('xtalk_');
    const proxied = await server.app.inject({
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(proxied.statusCode).toBe(404);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789abcdef';
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ METRICS_TOKEN: token });
  });
  afterAll(async () => {
    await server.close();
  });

  it('wants the bearer token, from anywhere: 401 without, 403 with a wrong one, 200 with it', async () => {
    const remoteAddress = '203.0.113.7';
    const none = await server.app.inject({ url: '/metrics', remoteAddress });
    expect(none.statusCode).toBe(401);
    const loopbackNone = await server.app.inject({ url: '/metrics' });
    expect(loopbackNone.statusCode).toBe(401);
    const wrong = await server.app.inject({
      url: '/metrics',
      remoteAddress,
      headers: { authorization: 'Bearer metrics-token-0123456789abcdeX' },
    });
    expect(wrong.statusCode).toBe(403);
    const right = await server.app.inject({
      url: '/metrics',
      remoteAddress,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(right.statusCode).toBe(200);
    expect(parsePrometheusText(right.body).get('xtalk_messages_total')?.type).toBe('counter');
  });
});
