import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { speakerAndListener, startServer, type TestServer } from '../testing/harness.js';

/* METRICS_ENABLED=off: the node keeps no metrics and serves no /metrics, and chat is unchanged. */

describe('METRICS_ENABLED', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ METRICS_ENABLED: 'off' });
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  it('is on unless set off, and refuses another word', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).METRICS_ENABLED).toBe('on');
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_ENABLED: 'no' })).toThrow(/METRICS_ENABLED/);
  });

  it('off: no metrics object for modules to report into, and GET /metrics is not served', async () => {
    expect(server.app.xtalkMetrics).toBeUndefined();
    const reply = await server.app.inject({ url: '/metrics' });
    expect([reply.statusCode, reply.json().message]).toEqual([404, 'Not found.']);
    expect(reply.body).not.toContain('xtalk_');
  });

  it('off: a chat message is stored and delivered as with metrics on', async () => {
    const { roomId, speaker, listener } = await speakerAndListener(server);
    speaker.send({ type: 'chat', language: 'en', message: 'no metrics', room: roomId, clientId: 'off-1' });
    const heard = await listener.next((frame) => frame.type === 'message' && frame.message === 'no metrics');
    expect(heard).toMatchObject({ type: 'message', offset: expect.any(Number) });
    await speaker.next((frame) => frame.type === 'message' && frame.message === 'no metrics');
  });
});
