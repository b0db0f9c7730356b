import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/*
 * A Prometheus of a services test's own (Debian's `prometheus` package, or PROMETHEUS_BIN): on
 * 127.0.0.1 at a free port, its data in a temporary directory, scraping and evaluating every second so
 * that an alert goes pending within moments; ended by its pid, its directory removed.
 */

export interface PrometheusServer {
  readonly url: string;
  /** An instant query's result vector (the HTTP API's /api/v1/query). */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** The active alerts, pending and firing (/api/v1/alerts). */
  alerts(): Promise<{ labels: Record<string, string>; state: string }[]>;
  /** The rule groups loaded (/api/v1/rules). */
  ruleGroups(): Promise<{ name: string; rules: { name: string; health: string }[] }[]>;
  stop(): Promise<void>;
}

const BINARY = process.env.PROMETHEUS_BIN ?? 'prometheus';

function configText(targets: string[], ruleFiles: string[]): string {
  return JSON.stringify({
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: ruleFiles,
    scrape_configs: [{ job_name: 'xtalk', static_configs: [{ targets }] }],
  });
}

async function api<T>(url: string): Promise<T> {
  const reply = await fetch(url);
  const body = (await reply.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`prometheus: ${body.error ?? reply.status}`);
  return body.data;
}

async function readyWithin(child: ChildProcess, url: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error('prometheus was not ready in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts Prometheus scraping `targets` (host:port) as the job `xtalk`, with `ruleFiles` loaded. */
export async function startPrometheus(targets: string[], ruleFiles: string[]): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'xtalk-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  // JSON is YAML: no YAML writer needed
  writeFileSync(config, configText(targets, ruleFiles));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    BINARY,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) =>
      reject(
        new Error(`${BINARY} did not start (Debian's prometheus package provides it): ${error.message}`),
      ),
    );
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  try {
    await spawned;
    await readyWithin(child, url, 20_000);
  } catch (error) {
    await stop().catch(() => undefined);
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    url,
    query: (expr) =>
      api(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`).then(
        (data) => (data as { result: never }).result,
      ),
    alerts: () => api<{ alerts: never }>(`${url}/api/v1/alerts`).then((data) => data.alerts),
    ruleGroups: () => api<{ groups: never }>(`${url}/api/v1/rules`).then((data) => data.groups),
    stop,
  };
}
