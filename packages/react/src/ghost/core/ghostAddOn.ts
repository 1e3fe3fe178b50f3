import type { GhostDebounceBounds } from './debounceTuner.js';
import type { GhostMachine, GhostMachineEvent } from './ghostMachine.js';
import type { GhostTextEvent } from './ghostTextEvent.js';

/**
 * What of a `GhostTextController`'s options an add-on reads: the session's
 * names and the add-on values themselves (`GhostTextOptions` is one). An
 * add-on is handed no more, so the options can name the add-ons' types
 * without the add-ons naming the options.
 */
export interface GhostAddOnOptions {
  readonly session: string;
  readonly model?: string;
  /** The prompt builder; only its `name` is read. */
  readonly buildParams?: { readonly name: string };
  readonly events?: GhostEvents;
  readonly pause?: GhostPause;
  readonly adaptDebounce?: GhostAdaptiveDebounce;
  readonly adaptLength?: GhostAdaptiveLength;
}

/**
 * What a `GhostTextController` tells an add-on, and the two things it asks
 * (each optional): the debounce to wait, how many tokens to ask for and
 * whether to ask the engine nothing now. One per add-on kind and controller, kept for its life; each
 * call gets the latest options, so a listener or bounds passed anew on each
 * render are the ones used.
 *
 * @example
 * // What the controller asks adaptiveDebounce's watcher before each wait:
 * const adaptDebounce = adaptiveDebounce({ minMs: 60, maxMs: 600 });
 * const watcher = adaptDebounce.start(() => performance.now());
 * watcher.debounceMs?.(120, { session: 'notes', adaptDebounce }); // 120 until it has measured 8 gaps
 */
export interface GhostWatcher {
  /** A step was committed: `input` took the machine from `before` to `after`, which shows `suggestion` (keys typed, requests sent, tokens heard all come this way). */
  stepped?(before: GhostMachine, after: GhostMachine, input: GhostMachineEvent, suggestion: string, options: GhostAddOnOptions): void;
  /** Listeners were told of the state: what the last step showed is what the person can see now. */
  painted?(): void;
  /** The app accepted `inserted` (all of `suggestion`, or its next word). */
  accepted?(how: 'all' | 'word', inserted: string, suggestion: string, options: GhostAddOnOptions): void;
  /** Ask the engine nothing now. */
  paused?(options: GhostAddOnOptions): boolean;
  /** The debounce to wait instead of `ms`. */
  debounceMs?(ms: number, options: GhostAddOnOptions): number;
  /** The most tokens to ask for instead of `tokens`. */
  maxTokens?(tokens: number, options: GhostAddOnOptions): number;
}

/**
 * An option value that adds behaviour to ghost text (made by `ghostEvents`,
 * `pauseAfterRejections`, `adaptiveDebounce` or `adaptiveLength`): its code ships only in apps
 * that import its factory. `start` makes its per-controller state, once per
 * controller; values made by the same factory share it.
 */
export interface GhostAddOn {
  readonly start: (now: () => number) => GhostWatcher;
}

/** The `events` option: where each suggestion's events go. Made by `ghostEvents`. */
export interface GhostEvents extends GhostAddOn {
  readonly listener: (event: GhostTextEvent) => void;
  /** Put the suggestion's text in `shown` and `accepted` events. */
  readonly text: boolean;
}

/** The `pause` option: when ghost text stops asking the engine because its suggestions keep being turned down. Made by `pauseAfterRejections`. */
export interface GhostPause extends GhostAddOn {
  /** Suggestions turned down in a row that pause it. */
  readonly afterRejections: number;
  /** How long the pause lasts at most, in ms (`Infinity`: until an accept). */
  readonly resumeAfterMs: number;
}

/** The `adaptDebounce` option: the bounds an adapted debounce stays within. Made by `adaptiveDebounce`. */
export interface GhostAdaptiveDebounce extends GhostAddOn, GhostDebounceBounds {}

/** The bounds an adapted suggestion length stays within, in tokens (whole numbers, 1 or more). */
export interface GhostLengthBounds {
  readonly minTokens: number;
  readonly maxTokens: number;
}

/** The `adaptLength` option: the bounds the suggestion length adapts within. Made by `adaptiveLength`. */
export interface GhostAdaptiveLength extends GhostAddOn, GhostLengthBounds {}
