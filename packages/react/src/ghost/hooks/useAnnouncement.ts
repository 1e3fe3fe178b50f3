import { useEffect, useState } from 'react';

/**
 * The text for a polite live region: `message` once `active` has held for
 * `delayMs`, `''` as soon as it stops. A burst of flickers announces nothing;
 * a steady state announces once.
 *
 * @example
 * const announcement = useAnnouncement(hasSuggestion, 'Suggestion available.', 600);
 * <div role="status">{announcement}</div>
 */
export function useAnnouncement(active: boolean, message: string, delayMs: number): string {
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    // `Infinity` means never (a timer would overflow and fire at once).
    if (!active || !Number.isFinite(delayMs)) return;
    const timer = setTimeout(() => setAnnounced(message), delayMs);
    return () => {
      clearTimeout(timer);
      setAnnounced('');
    };
  }, [active, message, delayMs]);
  return active ? announced : '';
}
