import { InvalidOptionError } from '@inkling/scheduler';
import { type Rule, durationRule, firstProblem } from '@inkling/scheduler/engine';
import type { GhostAdaptiveDebounce, GhostWatcher } from './ghostAddOn.js';
import { type GhostDebounceBounds, DebounceTuner } from './debounceTuner.js';
import { typedSince } from './projectGhostText.js';

const RULES: readonly Rule[] = [durationRule('minMs', { never: false }), durationRule('maxMs', { never: false })];

/**
 * The `adaptDebounce` option: adapt the debounce, within `minMs`..`maxMs`
 * (durations, min not above max; `InvalidOptionError` otherwise), to the
 * person's typing rhythm and the engine's measured first-token time (see
 * `DebounceTuner`); `debounceMs` is then only the start. In
 * `bench/ghost-prefix/adaptiveDebounce.ts` (simulated engines, 10 reps), a
 * slow, uneven typist on a slow engine (600 ms to the first token) sends 49%
 * fewer requests per accepted character with keystroke → suggestion p95
 * 1163 → 875 ms, a quick typist sees suggestions sooner (p95 270 → 238 ms on
 * a quick engine), and where waiting longer would only delay the last key (a
 * quick engine, or a typist slower than the engine) it keeps `debounceMs`. An app
 * that never imports it ships none of it.
 *
 * @example
 * useGhostText({ session: 'notes', text, adaptDebounce: adaptiveDebounce({ minMs: 60, maxMs: 600 }) });
 */
export function adaptiveDebounce({ minMs, maxMs }: GhostDebounceBounds): GhostAdaptiveDebounce {
  const problem = firstProblem({ minMs, maxMs }, RULES, 'adaptiveDebounce() ');
  if (problem) throw new InvalidOptionError(problem);
  if (minMs > maxMs) throw new InvalidOptionError(`adaptiveDebounce() needs minMs <= maxMs; it got ${minMs} and ${maxMs}.`);
  return { minMs, maxMs, start: startTuning };
}

/** Times the keys typed one after another, and each interactive request's first token, from the machine's steps. */
function startTuning(now: () => number): GhostWatcher {
  const tuner = new DebounceTuner();
  let movedAt: number | null = null;
  /** The interactive request not heard from yet, and when it was sent. */
  let waiting: { readonly id: number; readonly at: number } | null = null;
  let lastSent = 0;
  return {
    stepped: (before, after, input) => {
      const at = now();
      if (input.type === 'moved') {
        const typed = before.context ? typedSince(before.context, input.context) : undefined;
        if (movedAt !== null && typed?.length === 1) tuner.keyGap(at - movedAt);
        movedAt = at;
      }
      // A request is sent within the step that ended the debounce (a nested `sent` this watcher never sees): read it off the phase.
      const { phase } = after;
      const request = phase.name === 'asking' ? phase.request : null;
      if (request && !request.cached && !request.speculative && request.id > lastSent) {
        lastSent = request.id;
        waiting = { id: request.id, at };
      } else if (input.type === 'streamed' && input.id === waiting?.id) {
        tuner.firstToken(at - waiting.at);
        waiting = null;
      }
    },
    debounceMs: (ms, { adaptDebounce }) => (adaptDebounce ? tuner.debounceMs(adaptDebounce, ms) : ms),
  };
}
