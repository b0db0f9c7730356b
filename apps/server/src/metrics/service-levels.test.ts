import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape, scrapeUntil } from '../testing/metrics-scrape.js';
import { valueOf, type Family } from '../testing/prometheus-text.js';
import {
  TestClient,
  guestLogin,
  joinRoom,
  speakerAndListener,
  startServer,
  type TestServer,
} from '../testing/harness.js';
import { closeKind } from './registry.js';

/*
 * The families the service levels are computed from (docs/operations.md): sockets opened and how they
 * closed, a translation's first text timed from its message, and whether the node is ready.
 */

const closed = (families: Map<string, Family>, kind: string) =>
  valueOf(families, 'xtalk_ws_closed_total', { kind });

describe('service-level metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  it('counts a socket opened, a clean close as normal and a dropped one as abnormal', async () => {
    const login = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, login.token, null);
    const before = await scrape(server.app);
    const clean = await TestClient.join(server, login, roomId);
    const dropped = await TestClient.join(server, login, roomId);
    const opened = await scrape(server.app);
    expect(valueOf(opened, 'xtalk_ws_opened_total')).toBe(valueOf(before, 'xtalk_ws_opened_total') + 2);

    clean.ws.close(1000);
    const afterClean = await scrapeUntil(server.app, (f) => closed(f, 'normal') > closed(before, 'normal'));
    expect(closed(afterClean, 'normal')).toBe(closed(before, 'normal') + 1);
    expect(closed(afterClean, 'abnormal')).toBe(closed(before, 'abnormal'));

    // gone without a closing handshake: the server sees 1006
    dropped.ws.terminate();
    const afterDrop = await scrapeUntil(
      server.app,
      (f) => closed(f, 'abnormal') > closed(before, 'abnormal'),
    );
    expect(closed(afterDrop, 'abnormal')).toBe(closed(before, 'abnormal') + 1);
    expect(closed(afterDrop, 'normal')).toBe(closed(before, 'normal') + 1);
  });

  it("times a translation's first text from its message, once per language however many chunks", async () => {
    const { roomId, speaker, listener } = await speakerAndListener(server);
    const before = await scrape(server.app);
    speaker.send({ type: 'chat', language: 'en', message: 'time my first words please', room: roomId });
    await listener.next((frame) => frame.type === 'translationComplete' && frame.targetLanguage === 'ja');
    const count = 'xtalk_translation_first_text_seconds_count';
    const after = await scrapeUntil(server.app, (f) => valueOf(f, count) > valueOf(before, count));
    // one language besides the message's own (en, ja)
    expect(valueOf(after, count)).toBe(valueOf(before, count) + 1);
    const withinTwo = 'xtalk_translation_first_text_seconds_bucket';
    expect(valueOf(after, withinTwo, { le: '2' })).toBe(valueOf(before, withinTwo, { le: '2' }) + 1);
    speaker.close();
    listener.close();
  });

  it('says 1 while the node is ready and 0 once it drains', async () => {
    const own = await startServer();
    try {
      expect(valueOf(await scrape(own.app), 'xtalk_ready')).toBe(1);
      own.app.xtalkReadiness.drain();
      expect(valueOf(await scrape(own.app), 'xtalk_ready')).toBe(0);
      expect((await own.app.inject({ url: '/api/health/ready' })).statusCode).toBe(503);
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe('closeKind', () => {
  it('calls only a drop or a server error abnormal, and a drain a restart', () => {
    expect(closeKind(1006)).toBe('abnormal');
    expect(closeKind(1011)).toBe('abnormal');
    expect(closeKind(1012)).toBe('restart');
    for (const code of [1000, 1001, 1005, 1008, 4000, 4001, 4400])
      expect(closeKind(code), `${code}`).toBe('normal');
  });
});
