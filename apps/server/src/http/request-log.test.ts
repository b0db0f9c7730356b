import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/harness.js';
import { parsePrometheusText, valueOf } from '../testing/prometheus-text.js';

/*
 * The HTTP requests' lines in the server's own log: one per answered request, and a flood of refusals
 * writes a few lines while /metrics still counts every one.
 */

type Line = Record<string, unknown> & { msg?: string; reqId?: string };

describe('the request log', () => {
  const raw: string[] = [];
  const lines = () => raw.map((line) => JSON.parse(line) as Line);
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      {},
      { logger: { level: 'info', stream: { write: (line: string) => void raw.push(line) } } },
    );
  });
  afterAll(() => server.close());

  it('writes one line for a request, with its URL, status and time', async () => {
    const reply = await fetch(`${server.baseUrl}/api/health?probe=secret-value`);
    expect(reply.status).toBe(200);
    await expect.poll(() => lines().filter((line) => line.msg === 'request completed').length).toBe(1);
    const [line] = lines().filter((each) => each.msg === 'request completed');
    expect(line).toMatchObject({
      reqId: expect.stringMatching(/^req-/),
      req: { method: 'GET', url: '/api/health?probe=[redacted]' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(lines().filter((each) => each.reqId === line!.reqId)).toHaveLength(1);
    expect(lines().some((each) => each.msg === 'incoming request')).toBe(false);
  });

  it('samples a flood of refusals from one address, and counts each in /metrics', async () => {
    const count = (text: string) =>
      valueOf(parsePrometheusText(text), 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_code: '404',
      });
    const before = count((await server.app.inject({ url: '/metrics' })).body);
    for (let i = 0; i < 40; i++)
      expect((await fetch(`${server.baseUrl}/api/nothing-here/${i}`)).status).toBe(404);
    const after = count((await server.app.inject({ url: '/metrics' })).body);
    expect(after - before).toBe(40);
    const refused = lines().filter((line) => line.msg === 'request refused');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(3);
    expect(refused[0]).toMatchObject({ reqId: expect.stringMatching(/^req-/), res: { statusCode: 404 } });
    // the health request and the two scrapes, answered 200
    await expect.poll(() => lines().filter((line) => line.msg === 'request completed').length).toBe(3);
  });
});
