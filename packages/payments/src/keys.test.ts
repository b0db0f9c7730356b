import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { keyCheck } from './keys.js';

/* The key checks alone. */

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
const statusOf = async (check: () => Promise<void>) => {
  try {
    await check();
    return 200;
  } catch (error) {
    return (error as { statusCode: number }).statusCode;
  }
};

describe('payment keys', () => {
  const check = keyCheck({
    header: 'x-server-key',
    key: 'server-key-0123456789',
    name: 'Server',
    setting: 'PAYMENT_SERVER_KEY',
  });

  it('accepts the key, 401 without it, 403 for any other, including a prefix or a longer one', async () => {
    expect(await statusOf(() => check(request({ 'x-server-key': 'server-key-0123456789' })))).toBe(200);
    expect(await statusOf(() => check(request({})))).toBe(401);
    expect(await statusOf(() => check(request({ 'x-server-key': '' })))).toBe(401);
    for (const wrong of ['server-key-012345678', 'server-key-01234567890', 'SERVER-KEY-0123456789']) {
      expect(await statusOf(() => check(request({ 'x-server-key': wrong }))), wrong).toBe(403);
    }
    // the other key's header is not this one
    expect(await statusOf(() => check(request({ 'x-admin-key': 'server-key-0123456789' })))).toBe(401);
  });

  it('answers 503 naming the setting when no key is set', async () => {
    const off = keyCheck({ header: 'x-admin-key', key: undefined, name: 'Admin', setting: 'ADMIN_API_KEY' });
    await expect(off(request({ 'x-admin-key': 'anything' }))).rejects.toThrow(/ADMIN_API_KEY is not set/);
  });
});
