import { type ChatCompletionRequest, InvalidOptionError, type PoolTimers } from '@inkling/scheduler';
import { checkDuration } from '@inkling/scheduler/engine';
import type { FrameScheduler } from '../../base/core/frameScheduler.js';
import type { GhostParamsInput } from './ghostPrompt.js';
import type { GhostAdaptiveDebounce, GhostAdaptiveLength, GhostEvents, GhostPause } from './ghostAddOn.js';
import type { GhostRefusalRules } from './ghostRefusal.js';
import type { SuggestionCacheLimits } from './suggestionCache.js';

/**
 * Options of a `GhostTextController` (and of `useGhostText`).
 *
 * @example
 * const options: GhostTextOptions = { session: 'notes', text, caret, debounceMs: 150, events: ghostEvents(figures.record) };
 */
export interface GhostTextOptions {
  /** The pool session: each request supersedes the previous one of the same session. */
  session: string;
  /** The editor's whole text. */
  text: string;
  /** Where the caret is, 0..text.length. Default: the end of the text. */
  caret?: number;
  /** The other end of the selection, when text is selected (the caret is the end that moves). Default: the caret (nothing selected). */
  selectionStart?: number;
  /** Off: no requests, no suggestion. Default `true`. */
  enabled?: boolean;
  /** Quiet time after a change before asking the model, 0..2^31-1 ms (`InvalidOptionError` otherwise). Default `120`. */
  debounceMs?: number;
  /** The most tokens a suggestion may have: a whole number, 1 or more (`InvalidOptionError` otherwise). Default `24`. */
  maxTokens?: number;
  /**
   * Builds the request from the text around the caret. Default: `defaultGhostParams`.
   * A function written inline is fine (a request built the same is kept, the
   * cache is keyed by the request); a stable one (module scope, `useCallback`)
   * saves building the request again on each render.
   */
  buildParams?: (input: GhostParamsInput) => ChatCompletionRequest;
  /** Locale for splitting words in `acceptWord()`. Default: the runtime's. */
  locale?: string;
  /** The model the suggestions come from, as the app names it; another one empties the cache. Default `''` (`useGhostText` passes `<PoolProvider modelId>`). */
  model?: string;
  /**
   * While a complete suggestion is shown, ask for the one that follows it once
   * accepted (pool session `` `${session}:next` ``, `low` priority,
   * preemptible, at most one), so Tab after Tab finds the next suggestion in
   * the cache. Any keystroke off the way to that text stops it. Default `true`.
   */
  speculate?: boolean;
  /** Where no request is sent because a suggestion cannot help. Default: each rule's own (see `GhostRefusalRules`). */
  refuse?: GhostRefusalRules;
  /**
   * What each suggestion became, as `ghostEvents(listener, { text? })`
   * makes it (see `GhostTextEvent`). Default: none (and nothing is tracked).
   *
   * @example
   * useGhostText({ session: 'notes', text, events: ghostEvents((event) => figures.record(event)) });
   */
  events?: GhostEvents;
  /**
   * Stop asking the engine after some suggestions in a row were turned down,
   * as `pauseAfterRejections({ afterRejections, resumeAfterMs? })` makes it.
   * Default: off.
   *
   * @example
   * useGhostText({ session: 'notes', text, pause: pauseAfterRejections({ afterRejections: 5 }) });
   */
  pause?: GhostPause;
  /**
   * Adapt the debounce to the typing rhythm and the engine, within bounds,
   * as `adaptiveDebounce({ minMs, maxMs })` makes it. Default: off
   * (`debounceMs` always).
   *
   * @example
   * useGhostText({ session: 'notes', text, adaptDebounce: adaptiveDebounce({ minMs: 60, maxMs: 600 }) });
   */
  adaptDebounce?: GhostAdaptiveDebounce;
  /**
   * Adapt `maxTokens` to how the person takes suggestions (longer where they
   * take them whole, shorter where they take a word at a time), within
   * bounds, as `adaptiveLength({ minTokens, maxTokens })` makes it. Default:
   * off (`maxTokens` always).
   *
   * @example
   * useGhostText({ session: 'notes', text, adaptLength: adaptiveLength({ minTokens: 8, maxTokens: 48 }) });
   */
  adaptLength?: GhostAdaptiveLength;
}

/** What a `GhostTextController` is built with besides its options. */
export interface GhostTextEnvironment {
  /** Timers for the debounce. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  scheduleFrame?: FrameScheduler;
  /** The clock of the `events` times (and of the other add-ons), in ms. Default: `performance.now()`, looked up when used. */
  now?: () => number;
  /** Bounds of the session's suggestion cache. Default: `{ entries: 32, bytes: 262144 }`. */
  cache?: Partial<SuggestionCacheLimits>;
}

/** How a session's suggestions were served, counted since the controller was built. */
export interface GhostTextStats {
  /** Interactive requests sent to the pool. */
  readonly requests: number;
  /** Speculative (`low`, preemptible) requests sent for the suggestion after the shown one. */
  readonly speculations: number;
  /** Suggestions shown from the cache, without a new engine call. */
  readonly cacheHits: number;
  /** Pauses where a rule of `refuse` sent nothing. */
  readonly refusals: number;
}

/** The add-on options, and the factory that makes each. */
const ADD_ONS = [
  ['events', 'ghostEvents'],
  ['pause', 'pauseAfterRejections'],
  ['adaptDebounce', 'adaptiveDebounce'],
  ['adaptLength', 'adaptiveLength'],
] as const;

/**
 * Throws an `InvalidOptionError` for a duration a timer cannot honour, a
 * `maxTokens` that is not a whole number 1 or more, a rule that is not a count, or an add-on
 * option its factory did not make.
 *
 * @example
 * checkOptions({ session: 'notes', text: '', debounceMs: -1 }); // throws
 */
export function checkOptions(options: GhostTextOptions): void {
  // Not a rule table (`firstProblem`): that would ship it and `show` to every ghost-text app (about +210 B gzipped).
  // A debounce that never ends would be `enabled: false` in disguise.
  checkDuration(options.debounceMs, 'useGhostText() "debounceMs"', { never: false });
  const { maxTokens } = options;
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && maxTokens >= 1)) {
    const got = typeof maxTokens === 'string' ? JSON.stringify(maxTokens) : String(maxTokens);
    throw new InvalidOptionError(`useGhostText() "maxTokens" must be a whole number of tokens, 1 or more (default 24); it got ${got}.`);
  }
  for (const [key, factory] of ADD_ONS) {
    if (options[key] !== undefined && typeof options[key].start !== 'function') {
      throw new InvalidOptionError(`useGhostText() "${key}" must be made by ${factory}(…).`);
    }
  }
  const suffix = options.refuse?.maxLineSuffix;
  if (suffix !== undefined && !(typeof suffix === 'number' && suffix >= 0)) {
    throw new InvalidOptionError(
      `useGhostText() "refuse.maxLineSuffix" must be a number of characters, 0 or more (Infinity: no limit); it got ${String(suffix)}.`,
    );
  }
}

/**
 * Whether two option sets can give different suggestions for the same
 * request (another session or model), so the cache must go. Another
 * `buildParams` or `maxTokens` needs no such rule: the cache is keyed by the
 * request they build, so what they change misses it by itself.
 *
 * @example
 * resultsDiffer({ session: 'a', text: '', model: 'x' }, { session: 'a', text: '', model: 'y' }); // true
 */
export function resultsDiffer(a: GhostTextOptions, b: GhostTextOptions): boolean {
  return a.session !== b.session || (a.model ?? '') !== (b.model ?? '');
}

/**
 * Whether two option sets may build another request for the same text (so
 * the request in flight is checked against a fresh build). Compared with
 * `Object.is`, so no value compares unequal to itself.
 *
 * @example
 * requestsMayDiffer({ session: 'a', text: '', maxTokens: 8 }, { session: 'a', text: '', maxTokens: 16 }); // true
 */
export function requestsMayDiffer(a: GhostTextOptions, b: GhostTextOptions): boolean {
  return !Object.is(a.buildParams, b.buildParams) || !Object.is(a.maxTokens, b.maxTokens);
}
