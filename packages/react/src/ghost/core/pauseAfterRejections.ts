import { InvalidOptionError } from '@inkling/scheduler';
import { type Rule, durationRule, firstProblem, wholeNumber } from '@inkling/scheduler/engine';
import type { GhostPause, GhostWatcher } from './ghostAddOn.js';
import { eventWatcher } from './ghostTextEvents.js';

const RULES: readonly Rule[] = [
  ['afterRejections', wholeNumber(1, Number.MAX_SAFE_INTEGER), 'a whole number of suggestions, 1 or more'],
  durationRule('resumeAfterMs'),
];

/**
 * The `pause` option: stop asking the engine after `afterRejections`
 * suggestions in a row (a whole number, 1 or more) were turned down (typed
 * over, Escape, caret moved away); ask again after the next accept (of a
 * suggestion the cache still shows) or `resumeAfterMs` later (default
 * `30000`; `Infinity`: only on an accept). Throws an `InvalidOptionError`
 * for a count or duration it cannot use. An app that never imports it ships
 * none of it.
 *
 * @example
 * useGhostText({ session: 'notes', text, pause: pauseAfterRejections({ afterRejections: 5 }) });
 */
export function pauseAfterRejections({
  afterRejections,
  resumeAfterMs = 30_000,
}: {
  readonly afterRejections: number;
  readonly resumeAfterMs?: number;
}): GhostPause {
  const problem = firstProblem({ afterRejections, resumeAfterMs }, RULES, 'pauseAfterRejections() ');
  if (problem) throw new InvalidOptionError(problem);
  return { afterRejections, resumeAfterMs, start: startPause };
}

/** Counts rejections in a row from the events; an accept, or a pause run out, starts the count again. */
function startPause(now: () => number): GhostWatcher {
  let rejections = 0;
  let pausedUntil: number | null = null;
  return {
    ...eventWatcher(now, (event, { pause }) => {
      if (event.type === 'accepted') {
        rejections = 0;
        pausedUntil = null;
      } else if (event.type === 'rejected' && pause && (rejections += 1) >= pause.afterRejections) {
        pausedUntil = now() + pause.resumeAfterMs;
      }
    }),
    paused: () => {
      if (pausedUntil === null) return false;
      if (now() < pausedUntil) return true;
      pausedUntil = null;
      rejections = 0;
      return false;
    },
  };
}
