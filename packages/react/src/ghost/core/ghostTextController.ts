import { type ChatCompletionRequest, type Pool, InklingError, type JobResult, type PoolTimers, globalTimers } from '@inkling/scheduler';
import { Store, type Urgency } from '../../core/store.js';
import { StreamedJob } from '../../core/streamedJob.js';
import { type GhostContext, defaultGhostParams } from './ghostPrompt.js';
import { ghostRefusal } from './ghostRefusal.js';
import { type GhostRequest, type GhostShowing, suggestionFor } from './ghostRequest.js';
import {
  type GhostAcceptance,
  type GhostTextState,
  acceptSuggestion,
  contextOf,
  ghostState,
  projectGhostText,
  sameContext,
  typedSince,
} from './projectGhostText.js';
import { stripUnsafeText } from './stripUnsafeText.js';
import { SuggestionCache } from './suggestionCache.js';
import {
  type GhostTextEnvironment,
  type GhostTextOptions,
  type GhostTextStats,
  checkOptions,
  requestsMayDiffer,
  resultsDiffer,
} from './ghostTextOptions.js';

export type { GhostTextEnvironment, GhostTextOptions, GhostTextStats } from './ghostTextOptions.js';

/**
 * The controller's flow, each state named once:
 * - `off`: disabled, composing, or not yet given text; nothing asked or shown.
 * - `quiet`: nothing to ask here (blank text, a refusal rule, dismissed).
 * - `debouncing`: waiting out `debounceMs` before asking.
 * - `asking`: a request is in flight; what it says is shown while it fits.
 * - `shown`: a complete suggestion is shown (from the engine or the cache); the one after it may be speculated.
 * - `failed`: the request failed; the state carries the error.
 */
type Phase = 'off' | 'quiet' | 'debouncing' | 'asking' | 'shown' | 'failed';

/**
 * What moves it:
 * - `moved`: the text or caret changed (or a composition ended): keep what still fits, else look in the cache, else debounce.
 * - `quietEnded`: the debounce ran out: ask.
 * - `streamed`: the current request said more (or ended well): show it, or drop it and move on if it stopped fitting.
 * - `failed`: the current request ended without a reply.
 * - `dismissed`: Escape: nothing until the text or caret changes.
 * - `halted`: disabled, composing, another session, disposed: stop everything.
 */
type GhostEvent =
  | { readonly type: 'moved'; readonly context: GhostContext }
  | { readonly type: 'quietEnded'; readonly context: GhostContext }
  | { readonly type: 'streamed'; readonly request: GhostRequest; readonly urgency: Urgency }
  | { readonly type: 'failed'; readonly request: GhostRequest; readonly result: JobResult }
  | { readonly type: 'dismissed' }
  | { readonly type: 'halted' };

/** A built request: its parameters and the cache key they make. */
type Built = { readonly params: ChatCompletionRequest; readonly key: string } | { readonly error: InklingError };

/**
 * Ghost text for one editor: debounced, interactive requests superseding one
 * another through the pool's `session`; type-through (typing the suggestion's
 * next characters keeps the rest, no new request); a suggestion that no
 * longer fits is dropped at once, never shown stale; no request for blank or
 * unchanged text, nor where a `refuse` rule says a suggestion cannot help.
 * Suggestions already given are kept in a bounded cache keyed by the request
 * (a Backspace back to an answered text shows its suggestion at once), and
 * while one is shown the next is asked for speculatively, so accepting it
 * shows the next without waiting. Feed it the text and caret with
 * `setOptions` on every change.
 *
 * @example
 * const ghost = new GhostTextController(pool, { session: 'notes', text: '' });
 * textarea.oninput = () => ghost.setOptions({ session: 'notes', text: textarea.value, caret: textarea.selectionStart });
 * ghost.subscribe(() => overlay.textContent = ghost.getSnapshot().suggestion);
 */
export class GhostTextController extends Store<GhostTextState> {
  readonly #pool: Pool;
  readonly #timers: PoolTimers;
  readonly #cache: SuggestionCache;
  #options: GhostTextOptions;
  #phase: Phase = 'off';
  /** The context the state describes; `null` forces the next `setOptions` to act. */
  #context: GhostContext | null = null;
  #selected = 0;
  /** The request whose reply is shown (a cached one has no job). */
  #request: GhostRequest | undefined;
  #job = new StreamedJob();
  /** The speculative request: the reply for the text once the shown suggestion is accepted. */
  #next: { readonly request: GhostRequest; readonly from: GhostContext } | undefined;
  #nextJob = new StreamedJob();
  /** The text a Tab on the shown suggestion makes: arriving there asks at once, no debounce. */
  #acceptTarget: GhostContext | null = null;
  /** Bumped when the cache is emptied: replies to requests of an older generation are not kept. */
  #generation = 0;
  #built: { readonly context: GhostContext; readonly built: Built } | undefined;
  #timer: unknown;
  #dismissed: GhostContext | null = null;
  #composing = false;
  #stats: { -readonly [K in keyof GhostTextStats]: number } = { requests: 0, speculations: 0, cacheHits: 0, refusals: 0 };

  constructor(pool: Pool, options: GhostTextOptions, environment: GhostTextEnvironment = {}) {
    super(ghostState('idle', null), environment.scheduleFrame);
    checkOptions(options);
    this.#pool = pool;
    this.#options = options;
    this.#timers = environment.timers ?? globalTimers;
    this.#cache = new SuggestionCache(environment.cache);
  }

  /** Takes the latest text, caret and options; acts only when the context changed. */
  setOptions(options: GhostTextOptions): void {
    checkOptions(options); // before anything changes: a bad option leaves the controller as it was
    const previous = this.#options;
    this.#options = options;
    if (resultsDiffer(previous, options)) {
      // Another model, prompt or session: nothing cached or in flight still answers for it.
      this.#cache.clear();
      this.#generation += 1;
      this.#built = undefined;
      this.#context = null;
      if (options.session !== previous.session) this.#dismissed = null; // another editor (or document)
      this.#dispatch({ type: 'halted' });
    } else if (requestsMayDiffer(previous, options)) {
      // Maybe the same request (a `buildParams` written inline is a new function each render): act only if it is not.
      this.#built = undefined;
      const next = this.#next?.request;
      if (next && next.key !== this.#keyOf(next)) this.#stopNext();
      const request = this.#request;
      if (request && request.key !== this.#keyOf(request)) {
        this.#context = null;
        this.#dispatch({ type: 'halted' });
      }
    }
    if (options.enabled === false) {
      this.#context = null;
      this.#dispatch({ type: 'halted' });
      return;
    }
    const context = contextOf(options.text, options.caret);
    const selected =
      options.selectionStart === undefined
        ? 0
        : Math.abs(contextOf(options.text, options.selectionStart).before.length - context.before.length);
    if (sameContext(this.#context, context) && selected === this.#selected) return;
    this.#context = context;
    this.#selected = selected;
    if (!this.#composing) this.#dispatch({ type: 'moved', context });
  }

  /**
   * Tells it an IME composition is in progress (`true`) or over (`false`).
   * While composing, the suggestion is hidden and nothing is requested. Bound.
   */
  readonly setComposing = (composing: boolean): void => {
    if (composing === this.#composing) return;
    this.#composing = composing;
    if (composing) this.#dispatch({ type: 'halted' });
    else if (this.#context && this.#options.enabled !== false) this.#dispatch({ type: 'moved', context: this.#context });
  };

  /** The text with the whole suggestion inserted at the caret, and the caret after it (the text as it is when there is none). Bound. */
  readonly accept = (): GhostAcceptance => this.#accept('all');

  /**
   * The text with the suggestion's next word inserted at the caret (words as
   * `Intl.Segmenter` finds them, so CJK works). Feed the result back as the
   * text, with the caret after the insertion, and the rest stays. Bound.
   */
  readonly acceptWord = (): GhostAcceptance => this.#accept('word');

  /**
   * What to show for a text and caret, which may be a keystroke ahead of the
   * last `setOptions` (React renders the new text before its effect hands it
   * over): a suggestion typed through keeps its rest, one that no longer fits
   * is never shown, and nothing is shown while `enabled` is false.
   */
  view(state: GhostTextState, { text, caret, enabled }: Pick<GhostTextOptions, 'text' | 'caret' | 'enabled'>): GhostTextState {
    if (enabled === false) return ghostState('idle', state.context);
    return projectGhostText(state, contextOf(text, caret));
  }

  /**
   * Hides the suggestion and cancels its request; nothing more until the text
   * or caret changes. Ignored during an IME composition, which shows and asks
   * nothing anyway (an Escape then is the IME's). Bound.
   */
  readonly dismiss = (): void => {
    if (!this.#composing) this.#dispatch({ type: 'dismissed' });
  };

  /** How this session's suggestions were served so far (a new object each call). */
  get stats(): GhostTextStats {
    return { ...this.#stats };
  }

  /** The last listener left (after StrictMode's rehearsal, for good): stop. */
  protected override onStop(): void {
    this.dispose();
  }

  /** Cancels the requests, the debounce and any pending notification. */
  dispose(): void {
    this.#context = null;
    this.#dispatch({ type: 'halted' });
    this.cancelPendingFrame();
  }

  // ----------------------------------------------------------------- the flow

  /** Every change of state goes through here. */
  #dispatch(event: GhostEvent): void {
    switch (event.type) {
      case 'moved':
        return this.#moved(event.context);
      case 'quietEnded':
        return this.#phase === 'debouncing' ? this.#ask(event.context) : undefined;
      case 'streamed':
        return this.#streamed(event.request, event.urgency);
      case 'failed':
        return this.#failed(event.result);
      case 'dismissed':
        this.#dismissed = this.#context;
        return this.#halt('quiet');
      case 'halted':
        return this.#halt(this.#composing || !this.#context ? 'off' : 'quiet');
    }
  }

  /** The text or caret moved: keep what still fits, else the cache, the speculation, or a new request. */
  #moved(context: GhostContext): void {
    const request = this.#request;
    const fitting = request && suggestionFor(request, context);
    if (request && fitting) return this.#show(request, context, fitting, 'now');
    const accepted = sameContext(this.#acceptTarget, context);
    this.#stopCurrent();
    const next = this.#next;
    // A keystroke off the way from the shown suggestion to its accepted text: the speculation is moot.
    if (next && (typedSince(next.from, context) === undefined || typedSince(context, next.request) === undefined)) this.#stopNext();
    if (!context.before.trim() || sameContext(this.#dismissed, context)) return this.#enter('quiet', ghostState('idle', context));
    this.#dismissed = null;
    if (ghostRefusal(context, this.#selected, this.#options.refuse)) {
      this.#stats.refusals += 1;
      return this.#enter('quiet', ghostState('idle', context));
    }
    const cached = this.#cache.find(context, this.#keyOf, (entry) => !!suggestionFor({ ...entry, key: '', done: true }, context));
    if (cached) {
      this.#stats.cacheHits += 1;
      const hit: GhostRequest = { ...cached, key: this.#keyOf(cached) ?? '', done: true, cached: true };
      this.#request = hit;
      return this.#show(hit, context, suggestionFor(hit, context) as GhostShowing, 'now');
    }
    if (this.#next && sameContext(this.#next.request, context)) return this.#adopt(this.#next.request, context);
    if (accepted) return this.#ask(context); // a Tab is deliberate: no debounce
    this.#enter('debouncing', ghostState('queued', context));
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      this.#dispatch({ type: 'quietEnded', context });
    }, this.#options.debounceMs ?? 120);
  }

  /** The person reached the speculated text before its reply was done: it becomes the current request (asked again if it has said nothing yet). */
  #adopt(next: GhostRequest, context: GhostContext): void {
    this.#next = undefined;
    if (!next.raw) {
      this.#nextJob.stop();
      return this.#ask(context);
    }
    [this.#job, this.#nextJob] = [this.#nextJob, this.#job];
    this.#request = next;
    const showing = suggestionFor(next, context);
    if (showing) this.#show(next, context, showing, 'now');
    else this.#enter('asking', ghostState('queued', context));
  }

  /** Shows what a request says at `context`; a complete suggestion arms Tab and the speculation. */
  #show(request: GhostRequest, context: GhostContext, { suggestion, status }: GhostShowing, urgency: Urgency): void {
    const complete = request.done;
    this.#enter(complete ? 'shown' : 'asking', ghostState(status, context, suggestion, null, request.cached === true), urgency);
    this.#acceptTarget = complete && suggestion ? { before: context.before + suggestion, after: context.after } : null;
    if (complete && suggestion) this.#speculate(context, this.#acceptTarget as GhostContext);
  }

  #ask(context: GhostContext): void {
    const built = this.#build(context);
    if ('error' in built) return this.#enter('failed', ghostState('error', context, '', built.error));
    const request: GhostRequest = { ...context, key: built.key, raw: '', done: false };
    this.#request = request;
    this.#stats.requests += 1;
    this.#enter('asking', ghostState('queued', context));
    void this.#job.start(
      this.#pool,
      { session: this.#options.session, priority: 'interactive', params: built.params },
      this.#handlers(request),
    );
  }

  /** While `from` shows a complete suggestion: ask, at low priority and preemptible, for the one after it. */
  #speculate(from: GhostContext, target: GhostContext): void {
    if (this.#options.speculate === false || (this.#next && sameContext(this.#next.request, target))) return;
    if (ghostRefusal(target, 0, this.#options.refuse)) return;
    const built = this.#build(target);
    if ('error' in built || this.#cache.has(built.key)) return;
    const request: GhostRequest = { ...target, key: built.key, raw: '', done: false };
    this.#next = { request, from };
    this.#stats.speculations += 1;
    // Its own session, so it never supersedes the interactive one; the next speculation supersedes it.
    const spec = { session: `${this.#options.session}:next`, priority: 'low', preemptible: true, params: built.params } as const;
    void this.#nextJob.start(this.#pool, spec, this.#handlers(request));
  }

  /** What a request's job reports: text while it is the current one, its reply to the cache when it ends well. */
  #handlers(request: GhostRequest) {
    const generation = this.#generation;
    return {
      // Model output enters here, and only clean: nothing shown, cached or inserted holds a bidi override or a control character.
      onText: (text: string) => {
        request.raw = stripUnsafeText(text);
        if (request === this.#request) this.#dispatch({ type: 'streamed', request, urgency: 'frame' });
      },
      onEnd: (result: JobResult) => {
        if (this.#next?.request === request) this.#next = undefined;
        if (request !== this.#request) return;
        if (result.status === 'done') {
          request.done = true;
          request.raw = stripUnsafeText(result.text);
          this.#dispatch({ type: 'streamed', request, urgency: 'now' });
        } else this.#dispatch({ type: 'failed', request, result });
      },
      onFinish: (result: JobResult) => {
        if (result.status === 'done' && generation === this.#generation)
          this.#cache.put(request.key, request, stripUnsafeText(result.text));
      },
    };
  }

  /** Shows new output; output that stopped fitting the text is dropped and the text asked again. */
  #streamed(request: GhostRequest, urgency: Urgency): void {
    const context = this.#context;
    if (!context || this.#composing || request !== this.#request) return;
    const showing = suggestionFor(request, context);
    if (showing) this.#show(request, context, showing, urgency);
    else this.#moved(context);
  }

  /** An error, or cancelled from outside (the same session elsewhere, unload): nothing to show. */
  #failed(result: JobResult): void {
    this.#request = undefined;
    const context = this.#context;
    if (result.status === 'error' && result.error) this.#enter('failed', ghostState('error', context, '', result.error));
    else this.#enter('quiet', ghostState('idle', context));
  }

  /** Stops both requests and the debounce, and shows nothing. */
  #halt(phase: Phase): void {
    this.#stopCurrent();
    this.#stopNext();
    this.#acceptTarget = null;
    this.#enter(phase, ghostState('idle', this.#context));
  }

  // ----------------------------------------------------------------- helpers

  #accept(how: 'all' | 'word'): GhostAcceptance {
    const { text, caret, locale } = this.#options;
    return acceptSuggestion(text, caret, this.getSnapshot().suggestion, how, locale);
  }

  /** The request for `context` (the last one built is kept: the cache's lookup and the ask share it). */
  #build(context: GhostContext): Built {
    if (this.#built && sameContext(this.#built.context, context)) return this.#built.built;
    const { maxTokens = 24, buildParams = defaultGhostParams } = this.#options;
    let built: Built;
    try {
      const params = buildParams({ ...context, maxTokens });
      built = { params, key: JSON.stringify(params) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      built = { error: new InklingError(`useGhostText's buildParams threw: ${message}`, { cause: error }) };
    }
    this.#built = { context, built };
    return built;
  }

  readonly #keyOf = (context: GhostContext): string | undefined => {
    const built = this.#build(context);
    return 'key' in built ? built.key : undefined;
  };

  #stopCurrent(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#request = undefined;
    this.#job.stop();
  }

  #stopNext(): void {
    this.#next = undefined;
    this.#nextJob.stop();
  }

  /** Moves to `phase` showing `next`, or keeps the current state when `next` says the same (so nothing re-renders). */
  #enter(phase: Phase, next: GhostTextState, urgency: Urgency = 'now'): void {
    this.#phase = phase;
    const state = this.state;
    const same =
      next.suggestion === state.suggestion &&
      next.status === state.status &&
      next.error === state.error &&
      next.fromCache === state.fromCache &&
      sameContext(state.context, next.context);
    this.commit(same ? state : next, urgency);
  }
}
