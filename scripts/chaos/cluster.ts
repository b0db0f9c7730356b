import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startRedis, stopRedis } from '../../apps/server/src/testing/redis-server.js';
import type { ChatNode, ResumingClient } from '../../apps/server/src/testing/resuming-client.js';
import { scratchDatabase } from '../../apps/server/src/testing/scratch-database.js';
import { sleep } from '../../apps/server/src/testing/seeded.js';
import { joinRoom } from '../../bench/lib/guest.js';
import { freePort } from '../../apps/server/src/testing/free-port.js';
import { startServerProcess, type ServerProcess } from '../../bench/lib/server-process.js';

/*
 * What the chaos run breaks: server processes (two by default; the built server, as `npm start` runs
 * it) on one PostgreSQL database and one redis-server, both the run's own, so killing them touches no
 * one else. A test that runs without a build starts the server from its source instead.
 */

const root = join(import.meta.dirname, '../..');
const ENTRIES = {
  dist: { entry: join(root, 'apps/server/dist/server.js'), nodeArgs: [] },
  source: { entry: join(root, 'apps/server/src/server.ts'), nodeArgs: ['--import', 'tsx'] },
};
/** Loaded into a node started with a skewed clock (CHAOS_CLOCK_SKEW_MS). */
const SKEWED_CLOCK = join(import.meta.dirname, 'skewed-clock.mjs');

export interface Node extends ChatNode {
  readonly process: ServerProcess;
  readonly baseUrl: string;
  readonly skewMs: number;
}

export interface ClusterOptions {
  nodes?: number;
  /** `source` runs apps/server/src/server.ts through tsx: no build needed, a slower start. */
  build?: keyof typeof ENTRIES;
  /** Settings every node gets on top of the cluster's own. */
  env?: Record<string, string>;
}

export class Cluster {
  /** The nodes up now, by slot; a killed node's slot is empty until it is back. */
  readonly slots: (Node | undefined)[];
  private redis: ChildProcess | undefined;
  private redisPort = 0;
  private readonly database = scratchDatabase('xtalk_chaos');

  constructor(private readonly options: ClusterOptions = {}) {
    this.slots = Array.from({ length: options.nodes ?? 2 }, () => undefined);
  }

  get redisUrl(): string {
    return `redis://127.0.0.1:${this.redisPort}`;
  }

  async start(): Promise<void> {
    this.redisPort = await freePort();
    this.redis = await startRedis(this.redisPort);
    await this.database.create();
    // one at a time: the first creates the schema
    for (const slot of this.slots.keys()) await this.boot(slot, 0);
  }

  up(): Node[] {
    return this.slots.filter((node): node is Node => node !== undefined);
  }

  query<T extends object>(text: string, params?: unknown[]): Promise<T[]> {
    return this.database.query<T>(text, params);
  }

  /** Nodes that exited when nobody killed them: what their log said last. */
  readonly crashes: string[] = [];

  /** A node that exited by itself is a finding: its log's tail is kept, and it is started again. */
  async reap(): Promise<void> {
    for (const [slot, node] of this.slots.entries()) {
      if (!node?.process.exited()) continue;
      this.slots[slot] = undefined;
      this.crashes.push(node.process.logLines.slice(-30).join('\n'));
      await node.process.stop();
      await this.boot(slot, 0);
    }
  }

  /** SIGKILL: no shutdown hook runs, sockets are cut, whatever was in flight is gone. */
  async kill(slot: number): Promise<void> {
    await this.reap();
    const node = this.slots[slot];
    if (!node) return;
    this.slots[slot] = undefined;
    process.kill(node.process.pid, 'SIGKILL');
    while (!node.process.exited()) await sleep(20);
    await node.process.stop();
  }

  /** A node in `slot` again, on a new port, its clock `skewMs` off the others'. */
  async boot(slot: number, skewMs: number): Promise<Node> {
    const { entry, nodeArgs } = ENTRIES[this.options.build ?? 'dist'];
    const process = await startServerProcess({
      entry,
      nodeArgs: skewMs === 0 ? nodeArgs : [...nodeArgs, '--import', SKEWED_CLOCK],
      env: {
        DATABASE_URL: this.database.url,
        REDIS_URL: this.redisUrl,
        AUTH_SECRET: 'chaos-run-secret-shared-by-every-node',
        LANGUAGES: 'en',
        // every reconnect joins again, and a resume may be far behind after a long stall
        ROOM_JOINS_PER_MINUTE_PER_USER: '100000',
        RESUME_MAX_EVENTS: '100000',
        CHAOS_CLOCK_SKEW_MS: String(skewMs),
        ...this.options.env,
      },
    });
    const node: Node = {
      process,
      skewMs,
      baseUrl: process.baseUrl,
      wsBase: process.wsBase,
      join: (token, roomId) => joinRoom(process.baseUrl, token, roomId),
    };
    this.slots[slot] = node;
    return node;
  }

  /** Redis dies (SIGKILL) and comes back on the same port after `downMs`, empty. */
  async restartRedis(downMs: number, meanwhile: () => Promise<void>): Promise<void> {
    if (this.redis) await stopRedis(this.redis);
    await Promise.all([meanwhile(), new Promise((resolve) => setTimeout(resolve, downMs))]);
    this.redis = await startRedis(this.redisPort);
  }

  /** Waits until every outbox is empty and every client has the room's last message; false on timeout. */
  async settle(clients: readonly ResumingClient[], roomId: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const [room] = await this.query<{ last_seq: string }>('select last_seq from rooms where id = $1', [
        roomId,
      ]);
      const last = Number(room?.last_seq ?? 0);
      if (clients.every((client) => client.outbox.size === 0 && client.lastOffset === last)) return true;
      await sleep(200);
    }
    return false;
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.up().map((node) => node.process.stop()));
    if (this.redis) await stopRedis(this.redis);
    await this.database.drop();
  }
}
