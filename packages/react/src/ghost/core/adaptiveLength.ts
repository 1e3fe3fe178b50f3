import { InvalidOptionError } from '@inkling/scheduler';
import type { GhostAdaptiveLength, GhostLengthBounds, GhostWatcher } from './ghostAddOn.js';
import { eventWatcher } from './ghostTextEvents.js';

/** How the person took one suggestion: all of it (a Tab), or only its first word or words. */
export type GhostTaken = 'all' | 'word';

/** Suggestions taken that are remembered. */
const KEEP = 16;
/** Suggestions taken before the length moves from the app's `maxTokens`. */
const EVIDENCE = 4;

/**
 * The suggestion length for the way the last suggestions were taken
 * (oldest first): where whole accepts dominate, up to `maxTokens`; where
 * word accepts do, down to `minTokens`; in between by the share taken whole,
 * in quarters of the range (so the length, part of the cache key, moves in
 * few steps). Before 4 suggestions were taken: `fallback`, within the
 * bounds. Only the last 16 count.
 *
 * @example
 * suggestionLength(['all', 'all', 'all', 'word'], { minTokens: 8, maxTokens: 48 }, 24); // 38: three quarters taken whole
 */
export function suggestionLength(taken: readonly GhostTaken[], { minTokens, maxTokens }: GhostLengthBounds, fallback: number): number {
  const last = taken.slice(-KEEP);
  if (last.length < EVIDENCE) return Math.min(maxTokens, Math.max(minTokens, fallback));
  const whole = last.filter((how) => how === 'all').length / last.length;
  return Math.round(minTokens + (Math.round(whole * 4) / 4) * (maxTokens - minTokens));
}

/**
 * The `adaptLength` option: make suggestions longer where the person takes
 * them whole (Tab) and shorter where they take a word at a time, within
 * `minTokens`..`maxTokens` (whole numbers, 1 or more, min not above max;
 * `InvalidOptionError` otherwise); the `maxTokens` option is the start (see
 * `suggestionLength`). A suggestion counts once: taken whole if it ended in
 * a whole accept, else by word if a word of it was taken. An app that never
 * imports it ships none of it.
 *
 * @example
 * useGhostText({ session: 'notes', text, adaptLength: adaptiveLength({ minTokens: 8, maxTokens: 48 }) });
 */
export function adaptiveLength({ minTokens, maxTokens }: GhostLengthBounds): GhostAdaptiveLength {
  for (const [name, value] of [
    ['minTokens', minTokens],
    ['maxTokens', maxTokens],
  ] as const) {
    if (!(Number.isSafeInteger(value) && value >= 1)) {
      throw new InvalidOptionError(`adaptiveLength() "${name}" must be a whole number of tokens, 1 or more; it got ${String(value)}.`);
    }
  }
  if (minTokens > maxTokens) {
    throw new InvalidOptionError(`adaptiveLength() needs minTokens <= maxTokens; it got ${minTokens} and ${maxTokens}.`);
  }
  return { minTokens, maxTokens, start: startLength };
}

/** Remembers how each of the last suggestions was taken, from the events. */
function startLength(now: () => number): GhostWatcher {
  /** Suggestion number → how it was taken, oldest first. */
  const taken = new Map<number, GhostTaken>();
  return {
    ...eventWatcher(now, (event) => {
      if (event.type !== 'accepted' || (event.how === 'word' && taken.has(event.suggestion))) return;
      taken.delete(event.suggestion); // a whole accept after a word or two: taken whole, and the latest
      taken.set(event.suggestion, event.how);
      if (taken.size > KEEP) taken.delete(taken.keys().next().value as number);
    }),
    maxTokens: (tokens, { adaptLength }) => (adaptLength ? suggestionLength([...taken.values()], adaptLength, tokens) : tokens),
  };
}
