/**
 * The ghost-text controller as it was before the suggestion cache and the
 * speculative next suggestion (main at aa0fe48), frozen here as the bench's
 * baseline ("today"), like `legacyGhostParams.ts` for the prompt. Only its
 * imports are re-pointed and `accept`/`acceptWord` dropped (the bench
 * inserts the snapshot's suggestion itself).
 */
import { type ChatCompletionRequest, type Pool, InklingError, type JobResult, type PoolTimers } from '@inkling/scheduler';
import { checkDuration, globalTimers } from '@inkling/scheduler/engine';
import type { FrameScheduler } from '../../packages/react/src/base/core/frameScheduler.js';
import { Store, type Urgency } from '../../packages/react/src/base/core/store.js';
import { StreamedJob } from '../../packages/react/src/base/core/streamedJob.js';
import {
  type GhostContext,
  type GhostParamsInput,
  defaultGhostParams,
  stripRepetition,
} from '../../packages/react/src/ghost/core/ghostPrompt.js';
import {
  type GhostTextState,
  type GhostTextStatus,
  contextOf,
  ghostState,
  projectGhostText,
  sameContext,
  typedSince,
} from '../../packages/react/src/ghost/core/projectGhostText.js';

/** Options of a `GhostTextController` (and of `useGhostText`). */
export interface TodayGhostOptions {
  /** The pool session: each request supersedes the previous one of the same session. */
  session: string;
  /** The editor's whole text. */
  text: string;
  /** Where the caret is, 0..text.length. Default: the end of the text. */
  caret?: number;
  /** Off: no requests, no suggestion. Default `true`. */
  enabled?: boolean;
  /** Quiet time after a change before asking the model, 0..2^31-1 ms (`InvalidOptionError` otherwise). Default `120`. */
  debounceMs?: number;
  /** The most tokens a suggestion may have. Default `24`. */
  maxTokens?: number;
  /** Builds the request from the text around the caret. Default: `defaultGhostParams`. */
  buildParams?: (input: GhostParamsInput) => ChatCompletionRequest;
  /** Locale for splitting words in `acceptWord()`. Default: the runtime's. */
  locale?: string;
}

/** What a `GhostTextController` is built with besides its options. */
interface GhostTextEnvironment {
  /** Timers for the debounce. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  scheduleFrame?: FrameScheduler;
}

/** One request and what the model has said so far. */
interface Request extends GhostContext {
  raw: string;
  done: boolean;
}

/** Throws an `InvalidOptionError` for a duration a timer cannot honour. */
function checkOptions(options: TodayGhostOptions): void {
  // A debounce that never ends would be `enabled: false` in disguise.
  checkDuration(options.debounceMs, 'useGhostText() "debounceMs"', { never: false });
}

/**
 * Ghost text for one editor: debounced, interactive requests superseding one
 * another through the pool's `session`; type-through (typing the suggestion's
 * next characters keeps the rest, no new request); a suggestion that no
 * longer fits is dropped at once, never shown stale; no request for blank or
 * unchanged text. Feed it the text and caret with `setOptions` on every change.
 *
 * @example
 * const ghost = new GhostTextController(pool, { session: 'notes', text: '' });
 * textarea.oninput = () => ghost.setOptions({ session: 'notes', text: textarea.value, caret: textarea.selectionStart });
 * ghost.subscribe(() => overlay.textContent = ghost.getSnapshot().suggestion);
 */
export class TodayGhostController extends Store<GhostTextState> {
  readonly #pool: Pool;
  readonly #timers: PoolTimers;
  #options: TodayGhostOptions;
  /** The context the state describes; `null` forces the next `setOptions` to act. */
  #context: GhostContext | null = null;
  #request: Request | undefined;
  /** The request's job: a stopped or replaced one is heard from no more. */
  readonly #job = new StreamedJob();
  #timer: unknown;
  #dismissed: GhostContext | null = null;
  #composing = false;

  constructor(pool: Pool, options: TodayGhostOptions, environment: GhostTextEnvironment = {}) {
    super(ghostState('idle', null), environment.scheduleFrame);
    checkOptions(options);
    this.#pool = pool;
    this.#options = options;
    this.#timers = environment.timers ?? globalTimers;
  }

  /** Takes the latest text, caret and options; acts only when the context changed. */
  setOptions(options: TodayGhostOptions): void {
    checkOptions(options); // before anything changes: a bad option leaves the controller as it was
    const previous = this.#options;
    this.#options = options;
    // Another session is another editor (or document): nothing carries over.
    if (options.session !== previous.session) {
      this.#context = null;
      this.#dismissed = null;
      this.#reset();
    }
    if (options.enabled === false) {
      this.#context = null;
      this.#reset();
      return;
    }
    const context = contextOf(options.text, options.caret);
    if (sameContext(this.#context, context)) return;
    this.#context = context;
    if (!this.#composing) this.#changed(context);
  }

  /**
   * Tells it an IME composition is in progress (`true`) or over (`false`).
   * While composing, the suggestion is hidden and nothing is requested. Bound.
   */
  readonly setComposing = (composing: boolean): void => {
    if (composing === this.#composing) return;
    this.#composing = composing;
    if (composing) this.#reset();
    else if (this.#context && this.#options.enabled !== false) this.#changed(this.#context);
  };

  /**
   * What to show for a text and caret, which may be a keystroke ahead of the
   * last `setOptions` (React renders the new text before its effect hands it
   * over): a suggestion typed through keeps its rest, one that no longer fits
   * is never shown, and nothing is shown while `enabled` is false.
   */
  view(state: GhostTextState, { text, caret, enabled }: Pick<TodayGhostOptions, 'text' | 'caret' | 'enabled'>): GhostTextState {
    if (enabled === false) return ghostState('idle', state.context);
    return projectGhostText(state, contextOf(text, caret));
  }

  /**
   * Hides the suggestion and cancels its request; nothing more until the text
   * or caret changes. Ignored during an IME composition, which shows and asks
   * nothing anyway (an Escape then is the IME's). Bound.
   */
  readonly dismiss = (): void => {
    if (this.#composing) return;
    this.#dismissed = this.#context;
    this.#reset();
  };

  /** The last listener left (after StrictMode's rehearsal, for good): stop. */
  protected override onStop(): void {
    this.dispose();
  }

  /** Cancels the request, the debounce and any pending notification. */
  dispose(): void {
    this.#context = null;
    this.#reset();
    this.cancelPendingFrame();
  }

  // ----------------------------------------------------------------- internals

  /** The text or caret moved: keep what still fits, else drop it and ask again. */
  #changed(context: GhostContext): void {
    if (this.#request && this.#show(this.#request, context, 'now')) return;
    this.#reset();
    if (!context.before.trim() || sameContext(this.#dismissed, context)) return;
    this.#dismissed = null;
    this.#set(ghostState('queued', context));
    const debounceMs = this.#options.debounceMs ?? 120;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      this.#ask(context);
    }, debounceMs);
  }

  /**
   * Shows what `request` has produced as it applies to `context`. Returns
   * false (showing nothing) when it no longer fits: the text was not typed
   * through its suggestion, or the suggestion has been typed in full.
   */
  #show(request: Request, context: GhostContext, urgency: Urgency): boolean {
    const typed = typedSince(request, context);
    if (typed === undefined) return false;
    const full = stripRepetition(request.raw, request, request.done);
    let suggestion: string;
    if (full.startsWith(typed)) suggestion = full.slice(typed.length);
    else if (!request.done && typed.startsWith(full)) suggestion = ''; // typing ahead of the stream
    else return false;
    if (request.done && !suggestion && typed) return false; // typed it all: time for the next one
    const status: GhostTextStatus = request.done ? (suggestion ? 'done' : 'idle') : suggestion ? 'streaming' : 'queued';
    this.#set(ghostState(status, context, suggestion), urgency);
    return true;
  }

  #ask(context: GhostContext): void {
    const request: Request = { ...context, raw: '', done: false };
    const { maxTokens = 24, buildParams = defaultGhostParams } = this.#options;
    let params: ChatCompletionRequest;
    try {
      params = buildParams({ ...context, maxTokens });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#set(ghostState('error', context, '', new InklingError(`useGhostText's buildParams threw: ${message}`, { cause: error })));
      return;
    }
    this.#request = request;
    void this.#job.start(
      this.#pool,
      { session: this.#options.session, priority: 'interactive', params },
      {
        onText: (text) => {
          request.raw = text;
          this.#follow(request, 'frame');
        },
        onEnd: (result) => this.#finished(request, result),
      },
    );
  }

  /** The request's job ended while it was the current one. */
  #finished(request: Request, result: JobResult): void {
    request.done = true;
    if (result.status === 'done') {
      request.raw = result.text;
      this.#follow(request, 'now');
      return;
    }
    // An error, or cancelled from outside (the same session elsewhere, unload): nothing to show.
    this.#request = undefined;
    const context = this.#context;
    this.#set(result.status === 'error' && result.error ? ghostState('error', context, '', result.error) : ghostState('idle', context));
  }

  /** Shows new output; output that stopped fitting the text is dropped and asked again. */
  #follow(request: Request, urgency: Urgency): void {
    const context = this.#context;
    if (!context || this.#composing) return;
    if (!this.#show(request, context, urgency)) this.#changed(context);
  }

  /** Cancels the request and the debounce and shows nothing. */
  #reset(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#request = undefined;
    this.#job.stop();
    this.#set(ghostState('idle', this.#context));
  }

  /** Commits `next`, or keeps the current state when `next` says the same (so nothing re-renders). */
  #set(next: GhostTextState, urgency: Urgency = 'now'): void {
    const state = this.state;
    const same =
      next.suggestion === state.suggestion &&
      next.status === state.status &&
      next.error === state.error &&
      sameContext(state.context, next.context);
    this.commit(same ? state : next, urgency);
  }
}
