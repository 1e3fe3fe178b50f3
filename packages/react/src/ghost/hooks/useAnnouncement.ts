import { useCallback, useEffect, useState } from 'react';

/**
 * The text for a polite live region: `message` once it has held unchanged
 * for `delayMs` (a burst of changes announces nothing, a steady one
 * announces once), `''` as soon as it is `''`; and `sayNow()`, which puts it
 * there at once, again if it already was (the text changes by an invisible
 * character so screen readers read it once more).
 *
 * @example
 * const [announcement, sayNow] = useAnnouncement(settled ? `Suggestion: ${text}` : '', 600);
 * <div role="status">{announcement}</div>
 */
export function useAnnouncement(message: string, delayMs: number): readonly [string, () => void] {
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    // `Infinity` means never (a timer would overflow and fire at once).
    if (!message || !Number.isFinite(delayMs)) return;
    const timer = setTimeout(() => setAnnounced(message), delayMs);
    return () => {
      clearTimeout(timer);
      setAnnounced('');
    };
  }, [message, delayMs]);
  const sayNow = useCallback(() => setAnnounced((said) => (said === message ? `${message}\u00a0` : message)), [message]);
  return [message && announced.startsWith(message) ? announced : '', sayNow] as const;
}
