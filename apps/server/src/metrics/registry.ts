import { performance } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AiTask } from '../ai/index.js';
import type { AiRefusalReason, FrameRefusalReason, MetricsReport } from './report.js';

/*
 * The app's metrics: one prom-client Registry per app (tests build many apps in one process), never the
 * global one. The counters the hot paths move are plain numbers here (MetricsReport), copied into their
 * prom-client counters when /metrics is scraped: an increment on a delivery builds no label object.
 */

/** What the gauges read when scraped: owned by other modules, given once they exist. */
export interface MetricsSources {
  connections(): number;
  /** Rooms with a connection on this node. */
  rooms(): number;
  busUp(): boolean;
  dbUp(): Promise<boolean>;
  /** What GET /api/health/ready would answer now. */
  ready(): Promise<boolean>;
}

/** How a socket ended, for the socket service level: only a drop or a server error is abnormal. */
export type SocketCloseKind = 'normal' | 'restart' | 'abnormal';

/** 1006: gone without a closing handshake (a dropped link, a dead socket ended); 1011: a server error. */
export function closeKind(code: number): SocketCloseKind {
  if (code === 1012) return 'restart';
  return code === 1006 || code === 1011 ? 'abnormal' : 'normal';
}

/** The metric's names for the engine tasks: the AiTask names read as nouns, these as verbs. */
const TASK_LABELS: Record<AiTask, string> = {
  translation: 'translate',
  transcription: 'transcribe',
  speech: 'speak',
  note: 'note',
  summary: 'summarize',
};
const TASKS = Object.keys(TASK_LABELS) as AiTask[];

/** Plain numbers the modules move (MetricsReport), and the histograms they sample into directly. */
class Tally implements MetricsReport {
  text = 0;
  voice = 0;
  deliveries = 0;
  rateLimited = 0;
  invalid = 0;
  spent = 0;
  refunded = 0;
  opened = 0;
  readonly closed: Record<SocketCloseKind, number> = { normal: 0, restart: 0, abnormal: 0 };
  readonly refused: Record<AiRefusalReason, number> = { no_credits: 0, backlog: 0 };
  readonly failures: Record<AiTask, number> = {
    translation: 0,
    transcription: 0,
    speech: 0,
    note: 0,
    summary: 0,
  };

  constructor(
    private readonly deliverySeconds: Histogram,
    private readonly aiSeconds: Record<AiTask, Histogram.Internal<string>>,
    private readonly firstTextSeconds: Histogram,
  ) {}

  messageStored(kind: 'text' | 'voice') {
    if (kind === 'voice') this.voice++;
    else this.text++;
  }
  fannedOut(sockets: number, storedAt: number | undefined) {
    this.deliveries += sockets;
    if (storedAt !== undefined) this.deliverySeconds.observe((performance.now() - storedAt) / 1000);
  }
  frameRefused(reason: FrameRefusalReason) {
    if (reason === 'invalid') this.invalid++;
    else this.rateLimited++;
  }
  aiCall(task: AiTask, seconds: number, failed: boolean) {
    this.aiSeconds[task].observe(seconds);
    if (failed) this.failures[task]++;
  }
  creditsSpent(amount: number) {
    this.spent += amount;
  }
  creditsRefunded(amount: number) {
    this.refunded += amount;
  }
  socketOpened() {
    this.opened++;
  }
  socketClosed(code: number) {
    this.closed[closeKind(code)]++;
  }
  translationFirstText(seconds: number) {
    this.firstTextSeconds.observe(seconds);
  }
  aiRefused(reason: AiRefusalReason) {
    this.refused[reason]++;
  }
}

/** A counter whose value is read from `value` (by label value, when it has one label) at each scrape. */
function tallied(registry: Registry, name: string, help: string, value: () => number): void;
function tallied(
  registry: Registry,
  name: string,
  help: string,
  value: Record<string, () => number>,
  label: string,
): void;
function tallied(
  registry: Registry,
  name: string,
  help: string,
  value: (() => number) | Record<string, () => number>,
  label?: string,
) {
  new Counter({
    name,
    help,
    labelNames: label ? [label] : [],
    registers: [registry],
    collect() {
      this.reset();
      if (typeof value === 'function') return void this.inc(value());
      for (const [labelValue, read] of Object.entries(value)) this.inc({ [label!]: labelValue }, read());
    },
  });
}

function gauge(registry: Registry, name: string, help: string, read: () => number | Promise<number>) {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await read());
    },
  });
}

/** The counters /metrics shows, each read from the tally at scrape time. */
function countersOf(registry: Registry, tally: Tally) {
  tallied(
    registry,
    'xtalk_messages_total',
    'Messages stored, by kind.',
    {
      text: () => tally.text,
      voice: () => tally.voice,
    },
    'kind',
  );
  tallied(registry, 'xtalk_deliveries_total', 'Room frames handed to local sockets.', () => tally.deliveries);
  tallied(
    registry,
    'xtalk_ai_failures_total',
    'AI engine calls (each attempt) that failed, by task.',
    Object.fromEntries(TASKS.map((task) => [TASK_LABELS[task], () => tally.failures[task]])),
    'task',
  );
  tallied(registry, 'xtalk_credits_spent_total', 'Credits charged for AI work.', () => tally.spent);
  tallied(
    registry,
    'xtalk_credits_refunded_total',
    'Credits given back for AI work that failed.',
    () => tally.refunded,
  );
  tallied(
    registry,
    'xtalk_frames_refused_total',
    'Socket frames refused, by reason.',
    {
      rate_limited: () => tally.rateLimited,
      invalid: () => tally.invalid,
    },
    'reason',
  );
  tallied(registry, 'xtalk_ws_opened_total', 'WebSocket connections accepted.', () => tally.opened);
  tallied(
    registry,
    'xtalk_ws_closed_total',
    'WebSocket connections closed, by kind: normal, restart (a drain), abnormal (dropped, server error).',
    {
      normal: () => tally.closed.normal,
      restart: () => tally.closed.restart,
      abnormal: () => tally.closed.abnormal,
    },
    'kind',
  );
  tallied(
    registry,
    'xtalk_ai_refused_total',
    "AI work for a message not done, by reason: its author's credits, its room's backlog.",
    {
      no_credits: () => tally.refused.no_credits,
      backlog: () => tally.refused.backlog,
    },
    'reason',
  );
}

export function createMetrics() {
  const registry = new Registry();
  let sources: MetricsSources | undefined;
  let defaults = false;

  const deliverySeconds = new Histogram({
    name: 'xtalk_delivery_seconds',
    help: 'From a message stored on this node to its frame handed to the last local socket.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const aiHistogram = new Histogram({
    name: 'xtalk_ai_seconds',
    help: 'AI engine time of one call (each attempt), by task.',
    labelNames: ['task'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const aiSeconds = Object.fromEntries(
    TASKS.map((task) => [task, aiHistogram.labels(TASK_LABELS[task])]),
  ) as Record<AiTask, Histogram.Internal<string>>;
  for (const task of TASKS) aiHistogram.zero({ task: TASK_LABELS[task] });
  const firstTextSeconds = new Histogram({
    name: 'xtalk_translation_first_text_seconds',
    help: "From a message reaching translation to its translation's first text sent, per language.",
    buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30],
    registers: [registry],
  });
  const tally = new Tally(deliverySeconds, aiSeconds, firstTextSeconds);

  countersOf(registry, tally);
  gauge(
    registry,
    'xtalk_ws_connections',
    'Open WebSocket connections on this node.',
    () => sources?.connections() ?? 0,
  );
  gauge(registry, 'xtalk_rooms_active', 'Rooms with a connection on this node.', () => sources?.rooms() ?? 0);
  gauge(registry, 'xtalk_bus_up', 'Whether the bus (Redis, or in-process) is connected.', () =>
    sources?.busUp() === false ? 0 : 1,
  );
  gauge(registry, 'xtalk_db_up', 'Whether the database answers.', async () =>
    (await (sources?.dbUp() ?? true)) ? 1 : 0,
  );
  gauge(registry, 'xtalk_ready', 'Whether the node takes work (GET /api/health/ready is 200).', async () =>
    (await (sources?.ready() ?? false)) ? 1 : 0,
  );
  const httpSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });

  return {
    /** What modules report into. */
    report: tally as MetricsReport,
    /** Gives the gauges what they read (once the gateway, hub, bus and database exist). */
    watch(given: MetricsSources) {
      sources = given;
    },
    /** One HTTP request, by its route pattern (never the raw URL). */
    request(method: string, route: string, statusCode: number, seconds: number) {
      httpSeconds.observe({ method, route, status_code: statusCode }, seconds);
    },
    /**
     * The exposition text. The process and Node metrics start with the first scrape: their event-loop
     * monitor and GC observer cost nothing in a server (or a test's app) that is never scraped.
     */
    async text(): Promise<string> {
      if (!defaults) {
        defaults = true;
        collectDefaultMetrics({ register: registry });
      }
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
