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
 * The first backoff wait, before jitter; each next one doubles.
 *
 * @example
 * backoffMs(1, () => 0, Infinity) === BASE_BACKOFF_MS; // true
 */
export const BASE_BACKOFF_MS = 1000;

/**
 * The wait before retry number `attempt` (1-based) when the server gave no
 * advice: 1 s, 2 s, 4 s... never more than `capMs`, of which a random part
 * (`random()` in [0, 1)) is taken off, up to half, so that clients refused
 * together do not come back together.
 *
 * @example
 * backoffMs(2, () => 0, 20_000); // 2000; with Math.random, between 1000 and 2000
 */
export function backoffMs(attempt: number, random: () => number, capMs: number): number {
  const ceiling = Math.min(capMs, BASE_BACKOFF_MS * 2 ** Math.min(attempt - 1, 30));
  const share = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling * (1 - share / 2));
}
