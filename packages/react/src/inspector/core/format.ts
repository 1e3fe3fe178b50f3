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

/**
 * A job's owner as a person reads it: a shared pool's default tab id
 * `tab-2` becomes `tab 2`; a label the app gave (`popup`) stays as it is.
 *
 * @example
 * ownerName('tab-2'); // 'tab 2'
 */
export function ownerName(owner: string): string {
  return owner.replace(/^tab-(\d+)$/, 'tab $1');
}

/**
 * A shared pool's id or task without the owner's scope before it
 * (`tab-2|job-3` → `job-3`): another tab's jobs reach the snapshot scoped by
 * their tab, which the inspector names on its own.
 *
 * @example
 * withoutOwner('tab-2|translate-page', 'tab-2'); // 'translate-page'
 */
export function withoutOwner(text: string, owner: string | undefined): string {
  return owner !== undefined && text.startsWith(`${owner}|`) ? text.slice(owner.length + 1) : text;
}
