import { describe, expect, it, vi } from 'vitest';
import { ApiError, request, retryDelayMs } from './api-client';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('request', () => {
  it('sends JSON with the bearer token and returns only the body', async () => {
    const fetch = vi.fn(async () => json(200, { sessionId: 's', roomId: 'ABC2345' }));
    const body = await request(
      'POST',
      '/xtalk',
      { token: 't0k', body: { action: 'join', roomId: null } },
      { fetch, sleep: async () => {} },
    );
    expect(body).toEqual({ sessionId: 's', roomId: 'ABC2345' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/xtalk');
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer t0k');
    expect(init.body).toBe('{"action":"join","roomId":null}');
  });

  it('puts GET params in the query string', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, {}));
    await request(
      'GET',
      '/api/x',
      { params: { a: 1, b: undefined, c: 'z' } },
      { fetch, sleep: async () => {} },
    );
    expect(fetch.mock.calls[0]![0]).toBe('/api/x?a=1&c=z');
  });

  it('rejects with the server message and never retries an answered request', async () => {
    const fetch = vi.fn(async () =>
      json(404, { statusCode: 404, error: 'Not Found', message: 'Room not found.' }),
    );
    const error = await request('POST', '/xtalk', {}, { fetch, sleep: async () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toBe('Room not found.');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('retries a request with no response 3 times, waiting 500 ms x |remaining - 3|', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const sleep = vi.fn(async () => {});
    await expect(request('GET', '/api/me', {}, { fetch, sleep })).rejects.toThrow('Failed to fetch');
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(sleep.mock.calls.map((call) => (call as unknown[])[0])).toEqual([0, 500, 1000]);
    expect([3, 2, 1].map(retryDelayMs)).toEqual([0, 500, 1000]);
  });

  it('succeeds when a retry gets through', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(new TypeError('offline'))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(request('GET', '/api/health', {}, { fetch, sleep: async () => {} })).resolves.toEqual({
      ok: true,
    });
  });
});
