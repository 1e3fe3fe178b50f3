/**
 * How long a server asked us to wait, in milliseconds, or `undefined` when it
 * did not say. Reads `retry-after-ms` (OpenAI's), then `Retry-After` as
 * seconds or as an HTTP date (RFC 9110).
 *
 * @example
 * retryAfterMs(new Headers({ 'Retry-After': '2' }), Date.now()); // 2000
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (1-based) when the server gave no advice.
 *
 * @example
 * backoffMs(2); // 2000
 */
export function backoffMs(attempt: number): number {
  return 1000 * 2 ** (attempt - 1);
}
