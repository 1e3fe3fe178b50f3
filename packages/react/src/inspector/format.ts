/**
 * Milliseconds for an inspector cell: `85 ms`, `1.4 s`; `–` for none.
 *
 * @example
 * formatMs(1420); // '1.4 s'
 */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/**
 * A rate for an inspector cell: `32.5`, `120`; `–` for none.
 *
 * @example
 * formatRate(32.46); // '32.5'
 */
export function formatRate(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return '–';
  return rate >= 100 ? String(Math.round(rate)) : rate.toFixed(1);
}
