import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../apps/server/src/testing/scratch-database.js';
import { launchBrowser } from './lib/browser.js';
import type { Person } from './lib/people.js';
import { freePort } from '../apps/server/src/testing/free-port.js';
import { ProductServer } from './lib/product-server.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * XTalk as it is deployed (deploy/nginx.conf): Debian's nginx terminating TLS with a certificate made
 * here, in front of two nodes on PostgreSQL and Redis, TRUST_PROXY_HOPS=1, no sticky sessions. Two people
 * chat in Chromium over https:// and wss://; the node holding their sockets is drained with SIGTERM
 * mid-conversation; both go on talking through the other node, see no error and lose no message.
 * nginx runs as this test's child, in the foreground, with its files under a temporary directory.
 */
const root = resolve(import.meta.dirname, '..');
const database = scratchDatabase('xtalk_tls');

/** Every error the page shows: the reconnecting banner, an error toast. */
const WATCH_FOR_ERRORS = () => {
  const seen = new Set<string>();
  (window as unknown as { shownErrors: () => string[] }).shownErrors = () => [...seen];
  new MutationObserver(() => {
    if (document.querySelector('[data-testid="reconnecting-banner"]')) seen.add('reconnecting banner');
    const toast = document.querySelector('[data-sonner-toast][data-type="error"]');
    if (toast) seen.add(`error toast: ${toast.textContent}`);
  }).observe(document, { childList: true, subtree: true });
};

const fail = (message: string): never => {
  throw new Error(message);
};

/** Resolves once something answers HTTPS on `port` (any certificate: the test made it). */
async function untilAnswering(port: number, alive: () => unknown): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    alive();
    const answered = await new Promise<boolean>((done) => {
      const request = httpsGet(
        { host: '127.0.0.1', port, path: '/api/health', rejectUnauthorized: false },
        (response) => {
          response.resume();
          done(true);
        },
      );
      request.once('error', () => done(false));
    });
    if (answered) return;
    if (Date.now() > deadline) fail('nginx did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('behind nginx with TLS: a node drained mid-conversation', () => {
  let workDir: string;
  let nginx: ChildProcess;
  const nodes: ProductServer[] = [];
  let browser: Browser;
  let baseUrl: string;
  const nginxLog: string[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'xtalk-tls-'));
    const cert = join(workDir, 'cert.pem');
    const key = join(workDir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    await database.create();
    const port = await freePort();
    baseUrl = `https://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      // a logical database of its own on the machine's Redis; room codes are random besides
      REDIS_URL: `${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}/11`,
      AUTH_SECRET: 'tls-proxy-test-secret-shared-by-both-nodes',
      PUBLIC_URL: baseUrl,
      TRUST_PROXY_HOPS: '1',
      DRAIN_SECONDS: '2',
    };
    // one after the other: both would run the migrations at once otherwise
    nodes.push(await ProductServer.start(env));
    nodes.push(await ProductServer.start(env));

    const prefix = join(workDir, 'nginx');
    mkdirSync(prefix);
    const config = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8')
      .replaceAll('__PREFIX__', prefix)
      .replaceAll('__LISTEN__', String(port))
      .replaceAll('__CERT__', cert)
      .replaceAll('__KEY__', key)
      .replaceAll('__NODE_A__', `127.0.0.1:${nodes[0]!.port}`)
      .replaceAll('__NODE_B__', `127.0.0.1:${nodes[1]!.port}`);
    writeFileSync(join(prefix, 'nginx.conf'), config);
    nginx = spawn(
      'nginx',
      ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    nginx.stderr!.on('data', (data: Buffer) => nginxLog.push(data.toString()));
    await untilAnswering(port, () => nginx.exitCode === null || fail(`nginx exited:\n${nginxLog.join('')}`));
    browser = await launchBrowser(['--ignore-certificate-errors']);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    for (const node of nodes) await node.dispose();
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** Local sockets of a node (its liveness answer counts them). */
  async function socketsOn(node: ProductServer): Promise<number> {
    const health = (await (await fetch(`${node.url}/api/health`)).json()) as { connections: number };
    return health.connections;
  }

  async function seenByBoth(people: Person[], text: string) {
    for (const { page } of people) await expect.poll(() => messageWith(page, text).count()).toBe(1);
  }

  it('two people keep talking through the other node, with no error and no message lost', async () => {
    const sockets: string[] = [];
    const { alice, bob } = await twoGuestsInRoom(browser, baseUrl, (person) => {
      person.page.on('websocket', (socket) => sockets.push(socket.url()));
      return person.context.addInitScript(WATCH_FOR_ERRORS);
    });
    await alice.page.addInitScript(WATCH_FOR_ERRORS);
    await alice.page.evaluate(WATCH_FOR_ERRORS);
    const people = [alice, bob];
    expect(alice.page.url()).toMatch(/^https:/);

    await say(alice.page, 'hello over TLS');
    await seenByBoth(people, 'hello over TLS');
    await say(bob.page, 'hello back');
    await seenByBoth(people, 'hello back');

    // nginx hashes the room: both sockets are on its home node, which goes (decision 0237)
    const counts = await Promise.all(nodes.map(socketsOn));
    const drained = counts[0]! >= counts[1]! ? 0 : 1;
    expect(counts[drained]).toBe(2);
    const stopping = nodes[drained]!.stop();
    await say(alice.page, 'while it drains');
    expect(await stopping).toBe(0);
    for (let n = 1; n <= 3; n++) {
      await say(bob.page, `after the drain, Bob ${n}`);
      await say(alice.page, `after the drain, Alice ${n}`);
    }
    for (const text of ['hello over TLS', 'hello back', 'while it drains']) await seenByBoth(people, text);
    for (let n = 1; n <= 3; n++) {
      await seenByBoth(people, `after the drain, Bob ${n}`);
      await seenByBoth(people, `after the drain, Alice ${n}`);
    }
    // Bob's sockets (one more if his was on the drained node) went through TLS
    expect(sockets.length).toBeGreaterThan(0);
    expect(sockets.every((url) => url.startsWith(`wss://127.0.0.1:`))).toBe(true);
    // everyone is on the other node now
    expect(await socketsOn(nodes[1 - drained]!)).toBe(2);
    for (const { page } of people) {
      expect(
        await page.evaluate(() => (window as unknown as { shownErrors: () => string[] }).shownErrors()),
      ).toEqual([]);
    }
  });
});
