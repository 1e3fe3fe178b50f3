/**
 * A byte count for people: `512 B`, `3.4 MB`, `1.2 GB` (powers of 1000, as
 * download sizes are given).
 *
 * @example
 * formatBytes(1_234_567); // '1.2 MB'
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/**
 * Seconds left of a load at `progress` (0..1) after `elapsed` seconds,
 * assuming it goes on at the same pace; `null` while too little is known
 * (under 2% or under a second in) or once done.
 *
 * @example
 * secondsLeft(0.25, 10); // 30
 */
export function secondsLeft(progress: number, elapsed: number | null): number | null {
  if (elapsed === null || elapsed < 1 || progress < 0.02 || progress >= 1) return null;
  return (elapsed * (1 - progress)) / progress;
}

/**
 * A duration for people, rounded the way a progress message wants it:
 * `about 5 s`, `about 40 s`, `about 3 min`.
 *
 * @example
 * formatDuration(130); // 'about 2 min'
 */
export function formatDuration(seconds: number): string {
  if (seconds < 10) return `about ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90) return `about ${Math.round(seconds / 5) * 5} s`;
  return `about ${Math.round(seconds / 60)} min`;
}
