/*
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests: every line must be a HELP,
 * a TYPE or a sample of a family typed before it; names, labels, escapes and values must be well formed;
 * no series twice; a histogram's buckets cumulative, ending in +Inf equal to its _count.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string | undefined;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  // as Prometheus reads them (Go's ParseFloat): NaN and Inf in any case
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value: ${line}`);
  return Number(text);
}

function parseLabels(text: string | undefined, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text ?? '';
  while (rest.length > 0) {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`bad labels: ${line}`);
    const [whole, name, value] = match;
    if (name! in labels) throw new Error(`label twice: ${line}`);
    labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

/** The family a sample name belongs to, given the families typed so far. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const direct = families.get(name);
  if (direct) return direct;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family?.type === 'histogram' || (family?.type === 'summary' && suffix !== '_bucket')) return family;
  }
  return undefined;
}

function checkHistogram(name: string, family: Family) {
  const byLabels = new Map<string, Sample[]>();
  const counts = new Map<string, number>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(rest);
    if (sample.name === `${name}_count`) counts.set(key, sample.value);
    if (sample.name !== `${name}_bucket`) continue;
    if (le === undefined) throw new Error(`${name}: a bucket without le`);
    byLabels.set(key, [...(byLabels.get(key) ?? []), sample]);
  }
  for (const [key, buckets] of byLabels) {
    const last = buckets.at(-1)!;
    if (last.labels.le !== '+Inf') throw new Error(`${name}${key}: no +Inf bucket`);
    for (let i = 1; i < buckets.length; i++) {
      if (Number(buckets[i]!.labels.le) <= Number(buckets[i - 1]!.labels.le) && i < buckets.length - 1)
        throw new Error(`${name}${key}: bucket bounds not increasing`);
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${name}${key}: buckets not cumulative`);
    }
    if (counts.get(key) !== last.value) throw new Error(`${name}${key}: +Inf bucket is not _count`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (keyword !== 'HELP' && keyword !== 'TYPE') continue;
      if (!name || !NAME.test(name)) throw new Error(`bad family name: ${line}`);
      const family = families.get(name) ?? { type: 'untyped', help: undefined, samples: [] };
      if (family.samples.length > 0) throw new Error(`${keyword} after samples: ${line}`);
      if (keyword === 'HELP') family.help = rest.join(' ');
      else {
        if (!TYPES.has(rest[0] ?? '') || rest.length !== 1) throw new Error(`bad TYPE: ${line}`);
        family.type = rest[0] as Family['type'];
      }
      families.set(name, family);
      current = family;
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`bad sample: ${line}`);
    const [, name, labelText, valueText] = match;
    const family = familyOf(name!, families);
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    if (family !== current) throw new Error(`family not contiguous: ${line}`);
    const labels = parseLabels(labelText, line);
    const key = `${name}${JSON.stringify(labels)}`;
    if (seen.has(key)) throw new Error(`series twice: ${line}`);
    seen.add(key);
    family.samples.push({ name: name!, labels, value: parseValue(valueText!, line) });
  }
  for (const [name, family] of families) if (family.type === 'histogram') checkHistogram(name, family);
  return families;
}

/** The value of one series (labels matched exactly, `le` aside for the caller); 0 when absent. */
export function valueOf(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  for (const family of families.values())
    for (const sample of family.samples)
      if (sample.name === name && JSON.stringify(sample.labels) === JSON.stringify(labels))
        return sample.value;
  return 0;
}
