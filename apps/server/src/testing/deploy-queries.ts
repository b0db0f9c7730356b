import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/*
 * The PromQL that deploy/ ships, read for tests: the Grafana dashboards' queries, the Prometheus rules'
 * expressions and the series they record, and the series names an expression reads.
 */

const DEPLOY = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
export const RULES_DIR = `${DEPLOY}prometheus/`;
const DASHBOARDS_DIR = `${DEPLOY}grafana/`;

/** The rule files Prometheus loads (deploy/prometheus/*.yml), as absolute paths. */
export function ruleFiles(): string[] {
  return readdirSync(RULES_DIR)
    .filter((file) => file.endsWith('.yml'))
    .map((file) => `${RULES_DIR}${file}`);
}

/** Every `expr` under a dashboard's panels (rows' nested panels too), and its variables' metrics. */
function queriesOf(node: unknown, into: string[]): string[] {
  if (Array.isArray(node)) for (const item of node) queriesOf(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'expr' && typeof value === 'string') into.push(value);
      // a variable's label_values(metric, label): the metric is the query's one series
      else if (key === 'definition' && typeof value === 'string')
        into.push(value.replace(/^label_values\(\s*([^,]+),.*\)$/, '$1'));
      else queriesOf(value, into);
    }
  }
  return into;
}

/** The queries of every dashboard in deploy/grafana, by file. */
export function dashboardQueries(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const file of readdirSync(DASHBOARDS_DIR).filter((name) => name.endsWith('.json'))) {
    const dashboard: unknown = JSON.parse(readFileSync(`${DASHBOARDS_DIR}${file}`, 'utf8'));
    byFile.set(file, queriesOf(dashboard, []));
  }
  return byFile;
}

/**
 * The rules' expressions and the series they record. The rule files keep one shape: `expr:` with the
 * expression on its line, or `expr: |` with it on the more indented lines that follow.
 */
export function ruleQueries(): { records: string[]; exprs: string[] } {
  const records: string[] = [];
  const exprs: string[] = [];
  for (const file of ruleFiles()) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, at) => {
      const record = /^\s*- record: (\S+)$/.exec(line);
      if (record) records.push(record[1]!);
      const expr = /^(\s*)expr: (.*)$/.exec(line);
      if (!expr) return;
      if (expr[2] !== '|') return void exprs.push(expr[2]!);
      const indent = expr[1]!.length;
      const block: string[] = [];
      for (const next of lines.slice(at + 1)) {
        if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
        block.push(next.trim());
      }
      exprs.push(block.join(' '));
    });
  }
  return { records, exprs };
}

/** Each alert's name and the runbook its `runbook_url` names (docs/operations.md#anchor). */
export function alertRunbooks(): { alert: string; runbook: string }[] {
  const alerts: { alert: string; runbook: string }[] = [];
  for (const file of ruleFiles()) {
    let alert: string | undefined;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      alert = /^\s*- alert: (\S+)$/.exec(line)?.[1] ?? alert;
      const runbook = /^\s*runbook_url: (\S+)$/.exec(line)?.[1];
      if (alert && runbook) alerts.push({ alert, runbook });
    }
  }
  return alerts;
}

/** Keywords PromQL spells like a series name (a bare `group_left` has no label list). */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
  'group_left',
  'group_right',
]);

/**
 * The series names an expression reads: what stays a bare name once its strings, label matchers, ranges,
 * grouping labels, Grafana variables, function calls and numbers are set aside.
 */
export function seriesNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const before = bare[match.index - 1] ?? ' ';
    if (/[0-9.]/.test(before)) continue; // an exponent or a duration's unit
    if (
      bare
        .slice(match.index + match[0].length)
        .trimStart()
        .startsWith('(')
    )
      continue;
    if (KEYWORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names];
}
