import type { GhostMachine, GhostMachineEvent } from './ghostMachine.js';
import type { GhostTextOptions } from './ghostTextOptions.js';

/**
 * What a `GhostTextController` tells an add-on, and the two things it asks
 * (each optional): the debounce to wait, how many tokens to ask for and
 * whether to ask the engine nothing now. One per add-on kind and controller, kept for its life; each
 * call gets the latest options, so a listener or bounds passed anew on each
 * render are the ones used.
 */
export interface GhostWatcher {
  /** A step was committed: `input` took the machine from `before` to `after`, which shows `suggestion` (keys typed, requests sent, tokens heard all come this way). */
  stepped?(before: GhostMachine, after: GhostMachine, input: GhostMachineEvent, suggestion: string, options: GhostTextOptions): void;
  /** The app accepted `inserted` (all of `suggestion`, or its next word). */
  accepted?(how: 'all' | 'word', inserted: string, suggestion: string, options: GhostTextOptions): void;
  /** Ask the engine nothing now. */
  paused?(options: GhostTextOptions): boolean;
  /** The debounce to wait instead of `ms`. */
  debounceMs?(ms: number, options: GhostTextOptions): number;
  /** The most tokens to ask for instead of `tokens`. */
  maxTokens?(tokens: number, options: GhostTextOptions): number;
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
