/*
 * The bench's knobs from the environment (BENCH.md "Knobs"): unset or empty keeps the default; a value
 * that is not a number, or fails the check (positive by default), stops the run with its name.
 */
export function envNumber(
  name: string,
  fallback: number,
  check: (value: number) => boolean = (v) => v > 0,
): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) throw new Error(`${name}=${raw} is not a valid value`);
  return value;
}

export const envFlag = (name: string, fallback: boolean) =>
  process.env[name] === undefined ? fallback : !['0', 'false', 'no', ''].includes(process.env[name] ?? '');
