import { type ChatCompletionRequest, InvalidOptionError, type PoolTimers, checkDuration } from '@inkling/scheduler';
import type { FrameScheduler } from '../../core/frameScheduler.js';
import type { GhostParamsInput } from './ghostPrompt.js';
import type { GhostDebounceBounds } from './debounceTuner.js';
import type { GhostRefusalRules } from './ghostRefusal.js';
import type { GhostTextEvent } from './ghostTextEvents.js';
import type { SuggestionCacheLimits } from './suggestionCache.js';

/** Options of a `GhostTextController` (and of `useGhostText`). */
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
   * Called with what each suggestion became (`shown`, `typedThrough`,
   * `accepted`, `rejected`, `superseded`, `failed`; see `GhostTextEvent`),
   * synchronously, in order. The kit sends nothing anywhere; feed them to
   * `GhostFigures` or your own log. Default: none (and nothing is tracked).
   *
   * @example
   * useGhostText({ session: 'notes', text, onGhostEvent: (event) => figures.record(event) });
   */
  onGhostEvent?: (event: GhostTextEvent) => void;
  /** Put the suggestion's text in `shown` and `accepted` events. Default `false`: no text leaves the editor in an event. */
  eventText?: boolean;
  /**
   * Stop asking the engine after `afterRejections` suggestions in a row were
   * turned down (typed over, Escape, caret moved away); ask again after the
   * next accept (of a suggestion the cache still shows) or `resumeAfterMs`
   * later (default `30000`; `Infinity`: only on an accept). Default: off.
   *
   * @example
   * useGhostText({ session: 'notes', text, pause: { afterRejections: 5 } });
   */
  pause?: GhostPause;
  /**
   * Adapt the debounce, within these bounds, to the person's typing rhythm
   * and the engine's measured first-token time (see `DebounceTuner`);
   * `debounceMs` is then only the start. For a slow, uneven typist it sends
   * far fewer requests (a third, in `bench/ghost-prefix/adaptiveDebounce.ts`)
   * at the cost of a later first suggestion (p95 +53 ms there); for a quick
   * one it shows suggestions sooner. Default: off (`debounceMs` always).
   *
   * @example
   * useGhostText({ session: 'notes', text, adaptDebounce: { minMs: 60, maxMs: 600 } });
   */
  adaptDebounce?: GhostDebounceBounds;
}

/** When ghost text stops asking the engine because its suggestions keep being turned down. */
export interface GhostPause {
  /** Suggestions turned down in a row that pause it: a whole number, 1 or more. */
  readonly afterRejections: number;
  /** How long the pause lasts at most, in ms. Default `30000`. */
  readonly resumeAfterMs?: number;
}

/** What a `GhostTextController` is built with besides its options. */
export interface GhostTextEnvironment {
  /** Timers for the debounce. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  scheduleFrame?: FrameScheduler;
  /** The clock of `onGhostEvent`'s times, in ms. Default: `performance.now()`, looked up when used. */
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

/**
 * Throws an `InvalidOptionError` for a duration a timer cannot honour, a
 * `maxTokens` that is not a whole number 1 or more, or a rule that is not a count.
 *
 * @example
 * checkOptions({ session: 'notes', text: '', debounceMs: -1 }); // throws
 */
export function checkOptions(options: GhostTextOptions): void {
  // A debounce that never ends would be `enabled: false` in disguise.
  checkDuration(options.debounceMs, 'useGhostText() "debounceMs"', { never: false });
  const { maxTokens } = options;
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && maxTokens >= 1)) {
    const got = typeof maxTokens === 'string' ? JSON.stringify(maxTokens) : String(maxTokens);
    throw new InvalidOptionError(`useGhostText() "maxTokens" must be a whole number of tokens, 1 or more (default 24); it got ${got}.`);
  }
  const { pause, adaptDebounce } = options;
  if (adaptDebounce !== undefined) {
    checkDuration(adaptDebounce.minMs, 'useGhostText() "adaptDebounce.minMs"', { never: false });
    checkDuration(adaptDebounce.maxMs, 'useGhostText() "adaptDebounce.maxMs"', { never: false });
    if (adaptDebounce.minMs > adaptDebounce.maxMs) {
      throw new InvalidOptionError(
        `useGhostText() "adaptDebounce" needs minMs <= maxMs; it got ${adaptDebounce.minMs} and ${adaptDebounce.maxMs}.`,
      );
    }
  }
  if (pause !== undefined) {
    const { afterRejections } = pause;
    if (!(Number.isSafeInteger(afterRejections) && afterRejections >= 1)) {
      throw new InvalidOptionError(
        `useGhostText() "pause.afterRejections" must be a whole number of suggestions, 1 or more; it got ${String(afterRejections)}.`,
      );
    }
    checkDuration(pause.resumeAfterMs, 'useGhostText() "pause.resumeAfterMs"');
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
