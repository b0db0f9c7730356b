import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onFreePort } from '../../apps/server/src/testing/free-port.js';
import { assertNoIssuedSecretsIn } from './issued-secrets.js';

/*
 * The built product as a person gets it: `apps/server/dist/server.js` in a child process, so that it can
 * be killed and restarted mid-test, with the fake AI engine and the per-address limits lifted.
 */

const root = resolve(import.meta.dirname, '../..');

/** What the server logs once it listens (`server.ts`). */
const READY = 'XTalk is ready';

const answers = (url: string) =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

/** A child that exited while starting; one whose port was taken says so in the error's code. */
function startFailure(output: string, log: string): Error {
  const error = new Error(`server exited early:\n${log}`);
  if (output.includes('EADDRINUSE')) Object.assign(error, { code: 'EADDRINUSE' });
  return error;
}

export class ProductServer {
  private child: ChildProcess | undefined;
  readonly log: string[] = [];

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  /**
   * At a free port, or at `port` when other servers must know the address first (then a port taken by
   * another process fails the start, with the code EADDRINUSE: the caller picks again, with whatever
   * named it).
   */
  static async start(env: Record<string, string> = {}, port?: number): Promise<ProductServer> {
    const at = async (port: number) => {
      const server = new ProductServer(port, mkdtempSync(join(tmpdir(), 'xtalk-e2e-')), env);
      try {
        await server.boot();
      } catch (error) {
        rmSync(server.dataDir, { recursive: true, force: true });
        throw error;
      }
      return server;
    };
    return port === undefined ? onFreePort(at) : at(port);
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async boot(): Promise<void> {
    const logFrom = this.log.length;
    const child = spawn(process.execPath, [join(root, 'apps/server/dist/server.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        // production, as deployed: the address the browsers open, and the TEST MODE checkout named on
        PUBLIC_URL: this.url,
        TEST_CHECKOUT: 'on',
        DATA_DIR: this.dataDir,
        ALTCHA_COST: '300',
        AI_PROVIDER: 'fake',
        // every request's line too: the log is checked for the secrets the run's browsers used, and the
        // start waits for the line that says the server listens
        LOG_LEVEL: 'info',
        // every browser / load client connects from 127.0.0.1: lift the per-address limits (the per-user
        // ones stay at their defaults)
        RATE_LIMIT_BOTCHECK_PER_MINUTE: '100000',
        GUESTS_PER_MINUTE_PER_IP: '100000',
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
        RATE_LIMIT_API_PER_MINUTE_PER_IP: '100000',
        MAX_SOCKETS_PER_IP: '100000',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (data: Buffer) => this.log.push(data.toString()));
    child.stderr?.on('data', (data: Buffer) => this.log.push(data.toString()));
    // a cold start (PGlite's first open, migrations) takes 20-30 s on a loaded 2-core machine
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const output = this.log.slice(logFrom).join('');
      if (child.exitCode !== null) throw startFailure(output, this.log.join(''));
      // the port answers for this child only once it says it listens: until then, it may be another's
      if (output.includes(READY) && (await answers(`${this.url}/api/health`))) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    // a server that never answered must not outlive the test run that gave up on it
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${this.log.join('')}`);
  }

  /** SIGTERM, as a deploy would; resolves with the exit code once the process is gone. */
  async stop(): Promise<number | null> {
    const child = this.child;
    // a killed child has a signal and no exit code
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    return exited;
  }

  /** SIGKILL: no drain, no goodbye; the kernel cuts its sockets. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async restart(): Promise<void> {
    const code = await this.stop();
    if (code !== 0) throw new Error(`server did not shut down cleanly (exit ${code}):\n${this.log.join('')}`);
    await this.boot();
  }

  /** Stops the server and checks that its log, over all its starts, holds no secret the run used. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    assertNoIssuedSecretsIn(this.log.join(''));
  }
}
