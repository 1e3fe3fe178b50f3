import { EngineError, EngineLoadError, LoadCancelledError } from '@inkling/scheduler';
import type { BuiltInApiName } from './builtInApis.js';

/** Why an API cannot be used: not in this browser, blocked by a permissions policy, or the device cannot run it. */
export type BuiltInAbsence = 'absent' | 'blocked' | 'unavailable';

/**
 * One of Chrome's built-in AI APIs cannot be used here: the browser has none
 * (`'absent'`: not Chrome or Edge on desktop, or too old), a permissions
 * policy blocks it (`'blocked'`), or `availability()` says the device cannot
 * run its model (`'unavailable'`). The pool's load fails with it; nothing
 * was downloaded.
 *
 * @example
 * if (pool.getSnapshot().error instanceof BuiltInAIUnavailableError) useAnotherEngine();
 */
export class BuiltInAIUnavailableError extends EngineLoadError {
  override name = 'BuiltInAIUnavailableError';
  override readonly kind = 'no-device';
  override readonly device = 'browser';
  readonly api: BuiltInApiName;
  readonly reason: BuiltInAbsence;
  constructor(message: string, api: BuiltInApiName, reason: BuiltInAbsence, options?: { cause?: unknown }) {
    super(message, options);
    this.api = api;
    this.reason = reason;
  }
}

/**
 * A model download the browser runs made no progress for the bound
 * (`downloadStallMs`): offline, a network that blocks Google's model
 * servers, or too little free disk. The load fails with it; `load()` again
 * tries again.
 *
 * @example
 * await pool.load().catch((error) => error instanceof BuiltInDownloadStalledError && showOfflineHint());
 */
export class BuiltInDownloadStalledError extends EngineLoadError {
  override name = 'BuiltInDownloadStalledError';
  override readonly kind = 'network';
  override readonly device = 'browser';
  override readonly retryable = true;
}

/**
 * The browser downloads a model only in answer to a person's click or key
 * press ("transient activation"), and this load was not: call `pool.load()`
 * from the click handler of a button the person presses (a "Use Chrome's
 * built-in model" button), not at start-up or from a timer. Its `kind` is
 * `'needs-gesture'`: `<ModelLoadProgress>` then offers a "Download model"
 * button, whose press is that click.
 *
 * @example
 * button.onclick = () => void pool.load(); // the click lets Chrome download
 */
export class BuiltInGestureRequiredError extends EngineLoadError {
  override name = 'BuiltInGestureRequiredError';
  override readonly kind = 'needs-gesture';
  override readonly device = 'browser';
}

/**
 * A translation between two languages the Translator API cannot do here
 * (`availability()` answers `'unavailable'`, or a tag it does not take), or
 * whose model must be downloaded first and was not listed in `languages`.
 * `from` and `to` name the pair; only that item fails.
 *
 * @example
 * if (result.error instanceof UnsupportedLanguageError) console.warn(result.error.from, result.error.to);
 */
export class UnsupportedLanguageError extends EngineError {
  override name = 'UnsupportedLanguageError';
  override readonly kind = 'refused';
  override readonly device = 'browser';
  /** The source language; `'auto'` when it was to be detected. */
  readonly from: string;
  readonly to: string;
  /**
   * `'unavailable'`: the browser cannot translate the pair here. `'invalid'`:
   * not a language tag. `'download'`: its model must be downloaded first
   * (list the pair in `languages` and load). `'undetected'`: no source
   * language was given and none could be detected.
   */
  readonly reason: 'unavailable' | 'invalid' | 'download' | 'undetected';
  constructor(
    message: string,
    pair: { from: string; to: string; reason: UnsupportedLanguageError['reason'] },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.from = pair.from;
    this.to = pair.to;
    this.reason = pair.reason;
  }
}

/**
 * An input longer than the built-in model takes (the Translator's
 * `inputQuota`, the Prompt API's `contextWindow` or its older names), caught
 * before the browser is asked where the browser can measure it, else the
 * browser's own `QuotaExceededError`, typed. `needed` and `available` are in the model's tokens; only that
 * job fails.
 *
 * @example
 * if (result.error instanceof InputTooLongError) splitAndRetry(result.error.needed);
 */
export class InputTooLongError extends EngineError {
  override name = 'InputTooLongError';
  override readonly kind = 'refused';
  override readonly device = 'browser';
  /** Tokens the input needs (`NaN` where the browser refused it without saying). */
  readonly needed: number;
  /** Tokens there was room for (`NaN` where the browser refused it without saying). */
  readonly available: number;
  constructor(message: string, needed: number, available: number, options?: { cause?: unknown }) {
    super(message, options);
    this.needed = needed;
    this.available = available;
  }
}

/**
 * @deprecated Use `LoadCancelledError` from `@inkling/scheduler` (the same class for every engine;
 * `device: 'browser'` here). What a built-in engine's `createEngine` rejects with when its load's
 * `signal` aborts; an `EnginePool` keeps it to itself (`pool.load()` resolves `0`).
 */
export const BuiltInLoadCancelledError = LoadCancelledError;
/** @deprecated Use `LoadCancelledError` from `@inkling/scheduler`. */
export type BuiltInLoadCancelledError = LoadCancelledError;
