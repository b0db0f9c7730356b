import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardQueries, ruleFiles } from '../testing/deploy-queries.js';
import { freePort } from '../testing/free-port.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { startPrometheus, type PrometheusServer } from '../testing/prometheus-server.js';
import { startRedis, stopRedis } from '../testing/redis-server.js';
import { scratchDatabase } from '../testing/scratch-database.js';
import { NODES_SECRET } from '../testing/service-nodes.js';

/*
 * `npm run test:services`: deploy/prometheus's rules in a real Prometheus that scrapes two real nodes
 * (PostgreSQL, a redis-server of the test's own). While people chat, the indicators are recorded and no
 * alert is active; a node drained turns XTalkNodeNotReady pending for that node alone; Redis stopped
 * turns XTalkRedisDown pending. What Prometheus says is read through its own HTTP API.
 */

const instanceOf = (node: TestServer) => new URL(node.baseUrl).host;

describe('the alert rules in a real Prometheus, against two nodes', { timeout: 90_000 }, () => {
  const database = scratchDatabase('xtalk_prometheus');
  let redis: ChildProcess | undefined;
  let nodes: [TestServer, TestServer];
  let prometheus: PrometheusServer;

  /** Polls Prometheus's active alerts until one of `alertname` on `instance` is in `state`. */
  async function alertGoes(alertname: string, instance: string, state: 'pending' | 'firing') {
    await expect
      .poll(
        async () =>
          (await prometheus.alerts()).some(
            (alert) =>
              alert.labels.alertname === alertname &&
              alert.labels.instance === instance &&
              alert.state === state,
          ),
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
  }

  beforeAll(async () => {
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    await database.create();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      AUTH_SECRET: NODES_SECRET,
    };
    nodes = [await startServer(env), await startServer(env)];
    prometheus = await startPrometheus(nodes.map(instanceOf), ruleFiles());
  }, 90_000);

  afterAll(async () => {
    await prometheus?.stop();
    await Promise.allSettled((nodes ?? []).map((node) => node.close()));
    if (redis) await stopRedis(redis);
    await database.drop();
  });

  it('loads every rule healthy, records the indicators while people chat, and raises nothing', async () => {
    const groups = await prometheus.ruleGroups();
    expect(groups.map((group) => group.name)).toContain('xtalk-slo-delivery-slow');
    expect(groups.map((group) => group.name)).toContain('xtalk-node');
    await expect
      .poll(async () => (await prometheus.query('up{job="xtalk"} == 1')).length, { timeout: 20_000 })
      .toBe(2);
    const [a, b] = nodes;
    const alice = await guestLogin(a.app);
    const bob = await guestLogin(b.app);
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const atA = await TestClient.join(a, alice, roomId);
    const atB = await TestClient.join(b, bob, roomId, 'ja');
    for (let i = 0; i < 5; i++) {
      atA.send({ type: 'chat', language: 'en', message: `watched ${i}`, room: roomId });
      await atB.next((frame) => frame.type === 'message' && frame.message === `watched ${i}`);
    }
    await expect
      .poll(async () => (await prometheus.query('sum(xtalk_messages_total)'))[0]?.value[1], {
        timeout: 20_000,
        interval: 250,
      })
      .toBe('5');
    // the delivery indicator, recorded from what the nodes exported: none late
    await expect
      .poll(async () => (await prometheus.query('xtalk:delivery_slow:ratio_rate5m'))[0]?.value[1], {
        timeout: 20_000,
        interval: 250,
      })
      .toBe('0');
    // every rule evaluates without an error (the 28-day group waits for its first 5-minute turn)
    const rules = (await prometheus.ruleGroups()).flatMap((group) => group.rules);
    expect(rules.filter((rule) => rule.health === 'err')).toEqual([]);
    expect(rules.filter((rule) => rule.health === 'ok').length).toBeGreaterThan(50);
    // the event loop may lag for a moment on a shared test machine: that alert waits 10 minutes to fire
    const active = (await prometheus.alerts()).map((alert) => alert.labels.alertname);
    expect(active.filter((name) => name !== 'XTalkEventLoopLagging')).toEqual([]);
    atA.close();
    atB.close();
  });

  it("answers every dashboard query, with Grafana's variables filled in", async () => {
    const queries = [...dashboardQueries().values()].flat();
    for (const query of queries) {
      const expr = query.replaceAll('$instance', '.+').replaceAll('$__rate_interval', '1m');
      await expect(prometheus.query(expr), query).resolves.toBeInstanceOf(Array);
    }
    const ready = await prometheus.query('xtalk_ready{instance=~".+"}');
    expect(ready).toHaveLength(2);
  });

  it('turns XTalkNodeNotReady pending for a drained node, and only for it', async () => {
    const [a, b] = nodes;
    await b.app.xtalkDrain(0);
    await alertGoes('XTalkNodeNotReady', instanceOf(b), 'pending');
    const notReady = (await prometheus.alerts()).filter(
      (alert) => alert.labels.alertname === 'XTalkNodeNotReady',
    );
    expect(notReady.map((alert) => alert.labels.instance)).toEqual([instanceOf(b)]);
    expect(notReady[0]?.state).toBe('pending');
    expect(await prometheus.query('xtalk_ready')).toHaveLength(2);
    expect((await a.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('turns XTalkRedisDown pending once Redis is gone', async () => {
    await stopRedis(redis!);
    redis = undefined;
    await alertGoes('XTalkRedisDown', instanceOf(nodes[0]), 'pending');
    const down = await prometheus.query('xtalk_bus_up == 0');
    expect(down.map((sample) => sample.metric.instance).sort()).toEqual(nodes.map(instanceOf).sort());
  });
});
