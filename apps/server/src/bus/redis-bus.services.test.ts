import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlakyProxy, type FlakyProxy } from '../testing/flaky-proxy.js';
import { freePort } from '../testing/free-port.js';
import { startRedis, stopRedis } from '../testing/redis-server.js';
import type { Bus } from './bus.js';
import { createRedisBus } from './redis-bus.js';

/*
 * `npm run test:services`: the Redis bus across a link that drops again while the subscriber is taking
 * its channels back. A command of the client's own that fails then must not become an unhandled
 * rejection, which would end the node's process.
 */

describe('the Redis bus on a flapping link', { timeout: 60_000 }, () => {
  let redis: ChildProcess;
  let proxy: FlakyProxy;
  let bus: Bus;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    proxy = await startFlakyProxy(port);
    process.on('unhandledRejection', onRejection);
    bus = await createRedisBus(`redis://127.0.0.1:${proxy.port}`, 500);
  }, 30_000);

  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await bus?.close();
    await proxy?.close();
    if (redis) await stopRedis(redis);
  });

  it('takes its channels back after links cut during the resubscribe, with no unhandled rejection', async () => {
    const heard: string[] = [];
    await bus.subscribe('flapping', (payload) => void heard.push(payload.toString()));
    for (let round = 0; round < 4; round++) {
      proxy.cutOnNext(/subscribe/i, 300);
      proxy.cutAll();
      const word = `after cut ${round}`;
      await expect
        .poll(
          async () => {
            await bus.publish('flapping', Buffer.from(word)).catch(() => undefined);
            return heard.includes(word);
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(true);
    }
    expect(rejections).toEqual([]);
  });
});
