import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRunbooks, dashboardQueries, ruleQueries, seriesNames } from '../testing/deploy-queries.js';
import { startServer, type TestServer } from '../testing/harness.js';
import { parsePrometheusText } from '../testing/prometheus-text.js';

/*
 * deploy/'s dashboard and rules read only what a server exports: every series name in their queries is
 * a family a real app's /metrics answers (a histogram's _bucket, _sum and _count), a series the rules
 * record, or one Prometheus makes itself.
 */

/** Series Prometheus writes of its own: a target's scrape health, the alerts' state. */
const PROMETHEUS_OWN = ['up', 'ALERTS'];

describe('the dashboard and the rules name only exported metrics', () => {
  let server: TestServer;
  const exported = new Set<string>();
  beforeAll(async () => {
    server = await startServer();
    // the first scrape times itself: the second has the HTTP histogram's series
    await server.app.inject({ url: '/metrics' });
    const families = parsePrometheusText((await server.app.inject({ url: '/metrics' })).body);
    for (const [name, family] of families) {
      exported.add(name);
      if (family.type === 'histogram')
        for (const part of ['bucket', 'sum', 'count']) exported.add(`${name}_${part}`);
    }
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  const { records, exprs } = ruleQueries();
  const unknown = (expr: string, known: Set<string>) => seriesNames(expr).filter((name) => !known.has(name));

  it('reads the families the service levels need from a real app', () => {
    for (const name of [
      'xtalk_ws_opened_total',
      'xtalk_translation_first_text_seconds_bucket',
      'xtalk_ready',
    ])
      expect(exported, name).toContain(name);
  });

  it('has every dashboard query name an exported family, a recorded series or one of Prometheus', () => {
    const known = new Set([...exported, ...records, ...PROMETHEUS_OWN]);
    const dashboards = dashboardQueries();
    expect(dashboards.size).toBeGreaterThan(0);
    for (const [file, queries] of dashboards) {
      expect(queries.length, file).toBeGreaterThan(20);
      const strangers = queries.flatMap((expr) => unknown(expr, known).map((name) => `${name} in ${expr}`));
      expect(strangers, file).toEqual([]);
    }
  });

  it('shows every service level and its budget left', () => {
    const read = new Set([...dashboardQueries().values()].flat().flatMap(seriesNames));
    const levels = records.filter((name) => name.endsWith(':ratio_rate28d'));
    expect(levels.length).toBe(5);
    for (const name of levels) {
      expect(read, name).toContain(name);
      expect(read, name).toContain(name.replace(':ratio_rate28d', ':error_budget'));
    }
  });

  it('has every rule read exported families, or series the rules record', () => {
    expect(exprs.length).toBeGreaterThan(50);
    const known = new Set([...exported, ...records, 'up']);
    expect(exprs.flatMap((expr) => unknown(expr, known).map((name) => `${name} in ${expr}`))).toEqual([]);
  });
});

describe('the runbooks', () => {
  it('has a section in docs/operations.md for every alert, where its runbook_url points', () => {
    const doc = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const anchors = [...doc.matchAll(/^### (\S+)$/gm)].map((match) => match[1]!.toLowerCase());
    const alerts = alertRunbooks();
    expect(alerts.length).toBe(17);
    for (const { alert, runbook } of alerts) {
      expect(runbook, alert).toBe(`docs/operations.md#${alert.toLowerCase()}`);
      expect(anchors, alert).toContain(alert.toLowerCase());
    }
  });
});

describe('seriesNames', () => {
  it('keeps the series and sets aside functions, labels, ranges, strings, keywords and numbers', () => {
    expect(
      seriesNames(
        'histogram_quantile(0.99, sum by (instance, le) (rate(xtalk_delivery_seconds_bucket{instance=~"$instance"}[$__rate_interval])))',
      ),
    ).toEqual(['xtalk_delivery_seconds_bucket']);
    expect(
      seriesNames(
        '(sum(rate(a_total{status_code=~"5.."}[5m])) or vector(0)) / sum(rate(b_total[5m])) > 1e-3 * x:y:error_budget offset 5m',
      ),
    ).toEqual(['a_total', 'b_total', 'x:y:error_budget']);
    expect(seriesNames('sum(rate(c_total[1h])) by (task) / on() group_left d and bool e unless f')).toEqual([
      'c_total',
      'd',
      'e',
      'f',
    ]);
  });
});
