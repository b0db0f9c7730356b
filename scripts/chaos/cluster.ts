import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startRedis, stopRedis } from '../../apps/server/src/test/redis-server.js';
import type { ChatNode } from '../../apps/server/src/test/resuming-client.js';
import { scratchDatabase } from '../../apps/server/src/test/scratch-database.js';
import { joinRoom } from '../../bench/lib/guest.js';
import { freePort, startServerProcess, type ServerProcess } from '../../bench/lib/server-process.js';

/*
 * What the chaos run breaks: two server processes (the built server, as `npm start` runs it) on one
 * PostgreSQL database and one redis-server, both the run's own, so killing them touches no one else.
 */

const root = join(import.meta.dirname, '../..');
const ENTRY = join(root, 'apps/server/dist/server.js');
/** Loaded into a node started with a skewed clock (CHAOS_CLOCK_SKEW_MS). */
const SKEWED_CLOCK = join(import.meta.dirname, 'skewed-clock.mjs');

export interface Node extends ChatNode {
  readonly process: ServerProcess;
  readonly baseUrl: string;
  readonly skewMs: number;
}

export class Cluster {
  /** The nodes up now, by slot; a killed node's slot is empty until it is back. */
  readonly slots: (Node | undefined)[] = [undefined, undefined];
  private redis: ChildProcess | undefined;
  private redisPort = 0;
  private readonly database = scratchDatabase('xtalk_chaos');

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
    while (!node.process.exited()) await new Promise((resolve) => setTimeout(resolve, 20));
    await node.process.stop();
  }

  /** A node in `slot` again, on a new port, its clock `skewMs` off the others'. */
  async boot(slot: number, skewMs: number): Promise<Node> {
    const process = await startServerProcess({
      entry: ENTRY,
      nodeArgs: skewMs === 0 ? [] : ['--import', SKEWED_CLOCK],
      env: {
        DATABASE_URL: this.database.url,
        REDIS_URL: `redis://127.0.0.1:${this.redisPort}`,
        AUTH_SECRET: 'chaos-run-secret-shared-by-every-node',
        LANGUAGES: 'en',
        // every reconnect joins again, and a resume may be far behind after a long stall
        ROOM_JOINS_PER_MINUTE_PER_USER: '100000',
        RESUME_MAX_EVENTS: '100000',
        CHAOS_CLOCK_SKEW_MS: String(skewMs),
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

  async stop(): Promise<void> {
    await Promise.allSettled(this.up().map((node) => node.process.stop()));
    if (this.redis) await stopRedis(this.redis);
    await this.database.drop();
  }
}
