import { type ChatCompletionRequest, type Pool, InklingError, type JobResult, type PoolTimers, SUPERSEDED } from '@inkling/scheduler';
import { globalTimers, speculativeSession } from '@inkling/scheduler/engine';
import { Store } from '../../base/core/store.js';
import { StreamedJob } from '../../base/core/streamedJob.js';
import {
  type GhostEffect,
  type GhostMachineEvent,
  type GhostMachine,
  GHOST_START,
  currentRequest,
  ghostStateOf,
  stepGhost,
} from './ghostMachine.js';
import { type GhostContext, defaultGhostParams } from './ghostPrompt.js';
import { ghostRefusal } from './ghostRefusal.js';
import { type GhostRequest, suggestionFor } from './ghostRequest.js';
import {
  type GhostAcceptance,
  type GhostTextState,
  acceptSuggestion,
  contextOf,
  ghostState,
  projectGhostText,
  sameContext,
} from './projectGhostText.js';
import type { GhostAddOn, GhostWatcher } from './ghostAddOn.js';
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
 * `setOptions` on every change. The flow is one pure step (`stepGhost`);
 * this class is its shell: it runs the step's effects (the debounce timer,
 * the jobs, the cache) and feeds their answers back as events, and tells
 * the add-ons the options name (`events`, `pause`, `adaptDebounce`,
 * `adaptLength`) what
 * happens.
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
  #machine: GhostMachine = GHOST_START;
  #job = new StreamedJob();
  #nextJob = new StreamedJob();
  /** The last debounce timer started (it may have run out: clearing it then does nothing). */
  #timer: unknown;
  /** When the text or caret last moved: the debounce counts from there, also when it starts later (a reply found typed over). */
  #movedAt = 0;
  /** The last request built (the cache's lookup and the ask share it). */
  #built: { readonly context: GhostContext; readonly maxTokens: number; readonly built: Built } | undefined;
  /** Bumped when the cache is emptied: replies to requests of an older generation are not kept. */
  #generation = 0;
  #ids = 0;
  /** Events dispatched while effects run, stepped before the state is committed once. */
  #depth = 0;
  readonly #now: () => number;
  /** Each add-on kind's watcher, started the first time the options name one of that kind. */
  readonly #watchers = new Map<GhostAddOn['start'], GhostWatcher>();
  #stats: { -readonly [K in keyof GhostTextStats]: number } = { requests: 0, speculations: 0, cacheHits: 0, refusals: 0 };

  constructor(pool: Pool, options: GhostTextOptions, environment: GhostTextEnvironment = {}) {
    super(ghostStateOf(GHOST_START), environment.scheduleFrame);
    checkOptions(options);
    this.#pool = pool;
    this.#options = options;
    this.#timers = environment.timers ?? globalTimers;
    this.#cache = new SuggestionCache(environment.cache);
    this.#now = environment.now ?? (() => performance.now());
  }

  /** Takes the latest text, caret and options; acts only when the context changed. */
  setOptions(options: GhostTextOptions): void {
    checkOptions(options); // before anything changes: a bad option leaves the controller as it was
    const before = this.#options;
    this.#options = options;
    if (resultsDiffer(before, options)) {
      // Another model or session: nothing cached or in flight still answers for it.
      this.#cache.clear();
      this.#generation += 1;
      this.#built = undefined;
      // Another session is another editor (or document): an Escape pressed in this one does not carry over.
      this.#dispatch({ type: 'halted', forget: true, undismiss: options.session !== before.session });
    } else if (requestsMayDiffer(before, options)) {
      // Maybe the same request (a `buildParams` written inline is a new function each render): act only if it is not.
      this.#built = undefined;
      const { phase, next } = this.#machine;
      const stale = (built: GhostRequest | null | undefined) => !!built && built.key !== this.#keyOf(built);
      this.#dispatch({ type: 'rebuilt', current: stale(currentRequest(phase)), next: stale(next?.request) });
    }
    if (options.enabled === false) return this.#dispatch({ type: 'halted', forget: true });
    const context = contextOf(options.text, options.caret);
    const selected =
      options.selectionStart === undefined
        ? 0
        : Math.abs(contextOf(options.text, options.selectionStart).before.length - context.before.length);
    if (sameContext(this.#machine.context, context) && selected === this.#machine.selected) return;
    this.#movedAt = this.#now();
    this.#dispatch({ type: 'moved', context, selected, refuse: options.refuse });
  }

  /**
   * Tells it an IME composition is in progress (`true`) or over (`false`).
   * While composing, the suggestion is hidden and nothing is requested. Bound.
   */
  readonly setComposing = (composing: boolean): void => {
    if (composing === this.#machine.composing) return;
    this.#dispatch({ type: 'composing', composing });
    const { context, selected } = this.#machine;
    if (!composing && context && this.#options.enabled !== false) {
      this.#dispatch({ type: 'moved', context, selected, refuse: this.#options.refuse });
    }
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
   * The text with `suggestion`, as the app shows it at `text` and `caret`
   * (all of it or its next word), accepted at the caret; reported to
   * the `events` option as `accepted`. `accept` and `acceptWord` call it with the
   * last options; the hooks with what they rendered. Bound.
   *
   * @example
   * const next = ghost.acceptFrom({ text, caret, suggestion: view.suggestion }, 'word');
   */
  readonly acceptFrom = (
    view: { readonly text: string; readonly caret?: number; readonly suggestion: string },
    how: 'all' | 'word',
  ): GhostAcceptance => {
    const accepted = acceptSuggestion(view.text, view.caret, view.suggestion, how, how === 'word' ? this.#options.locale : undefined);
    for (const watcher of this.#addOns()) watcher.accepted?.(how, accepted.inserted, view.suggestion, this.#options);
    return accepted;
  };

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
  readonly dismiss = (): void => this.#dispatch({ type: 'dismissed' });

  /** How this session's suggestions were served so far (a new object each call). */
  get stats(): GhostTextStats {
    return { ...this.#stats };
  }

  /** Listeners hear the state (at once, or at the next frame while tokens stream): what is painted now, for add-ons. */
  protected override emit(): void {
    super.emit();
    for (const watcher of this.#addOns()) watcher.painted?.();
  }

  /** The last listener left (after StrictMode's rehearsal, for good): stop. */
  protected override onStop(): void {
    this.dispose();
  }

  /** Cancels the requests, the debounce and any pending notification. */
  dispose(): void {
    this.#dispatch({ type: 'halted', forget: true });
    this.cancelPendingFrame();
  }

  // ----------------------------------------------------------------- the shell

  /** Steps the machine, runs what the step asks, and commits the state once the events it caused are stepped too. */
  #dispatch(event: GhostMachineEvent): void {
    const before = this.#machine;
    const { state: machine, effects } = stepGhost(before, event);
    this.#machine = machine;
    this.#depth += 1;
    try {
      for (const effect of effects) this.#run(effect);
    } finally {
      this.#depth -= 1;
    }
    if (this.#depth > 0) return;
    const next = ghostStateOf(this.#machine);
    const state = this.state;
    const same =
      next.suggestion === state.suggestion &&
      next.status === state.status &&
      next.error === state.error &&
      next.fromCache === state.fromCache &&
      sameContext(state.context, next.context);
    // Tokens arriving are shown once a frame; everything else at once.
    this.commit(same ? state : next, event.type === 'streamed' && next.status === 'streaming' ? 'frame' : 'now');
    for (const watcher of this.#addOns()) watcher.stepped?.(before, this.#machine, event, next.suggestion, this.#options);
  }

  #run(effect: GhostEffect): void {
    switch (effect.type) {
      case 'lookUp':
        return this.#lookUp(effect.context);
      case 'startTimer': {
        this.#timer = this.#timers.setTimeout(
          // The rejection that paused it may have come with the keystroke that started this wait.
          () => this.#dispatch(this.#paused() ? { type: 'halted' } : { type: 'quietEnded' }),
          // Waited out since the last keystroke: a request found typed over only at its first token asks again after what is left (past: at once).
          this.#adapted('debounceMs', this.#options.debounceMs ?? 120) + this.#movedAt - this.#now(),
        );
        return;
      }
      case 'clearTimer':
        // One that ran out already, or none yet: nothing to clear, as with the platform's timers.
        this.#timers.clearTimeout(this.#timer);
        return;
      case 'ask':
        return this.#ask(effect.context);
      case 'stopCurrent':
        this.#job.stop(effect.superseded ? SUPERSEDED : undefined);
        return;
      case 'stopNext':
        this.#nextJob.stop();
        return;
      case 'adoptNext':
        [this.#job, this.#nextJob] = [this.#nextJob, this.#job];
        return;
      case 'speculate':
        return this.#speculate(effect.from, effect.target);
      case 'countRefusal':
        this.#stats.refusals += 1;
    }
  }

  #lookUp(context: GhostContext): void {
    const fits = (entry: GhostContext & { raw: string }) => !!suggestionFor({ ...entry, id: 0, key: '', done: true }, context);
    const cached = this.#cache.find(context, this.#keyOf, fits);
    let hit: GhostRequest | undefined;
    if (cached) {
      this.#stats.cacheHits += 1;
      hit = { ...cached, id: (this.#ids += 1), key: this.#keyOf(cached) ?? '', done: true, cached: true };
    }
    this.#dispatch({ type: 'found', hit, paused: !hit && this.#paused() });
  }

  #ask(context: GhostContext): void {
    const built = this.#build(context);
    if ('error' in built) return this.#dispatch({ type: 'unbuildable', error: built.error });
    const request: GhostRequest = { ...context, id: (this.#ids += 1), key: built.key, raw: '', done: false };
    this.#stats.requests += 1;
    this.#dispatch({ type: 'sent', request });
    void this.#job.start(
      this.#pool,
      { session: this.#options.session, priority: 'interactive', params: built.params },
      this.#handlers(request),
    );
  }

  /** While `from` shows a complete suggestion: ask, at low priority and preemptible, for the one after it. */
  #speculate(from: GhostContext, target: GhostContext): void {
    if (this.#options.speculate === false || ghostRefusal(target, 0, this.#options.refuse) || this.#paused()) return;
    const built = this.#build(target);
    if ('error' in built || this.#cache.has(built.key)) return;
    const request: GhostRequest = { ...target, id: (this.#ids += 1), key: built.key, raw: '', done: false, speculative: true };
    this.#stats.speculations += 1;
    this.#dispatch({ type: 'speculated', next: { request, from } });
    // Its own session, so it never supersedes the interactive one; the next speculation supersedes it.
    const spec = { session: speculativeSession(this.#options.session), priority: 'low', preemptible: true, params: built.params } as const;
    void this.#nextJob.start(this.#pool, spec, this.#handlers(request));
  }

  /** What a request's job reports, as events; model output enters here, and only clean (see `stripUnsafeText`). */
  #handlers({ id, key, before, after }: GhostRequest) {
    const generation = this.#generation;
    return {
      onText: (text: string) => this.#dispatch({ type: 'streamed', id, raw: stripUnsafeText(text) }),
      onEnd: (result: JobResult) => this.#dispatch({ type: 'ended', id, result: { ...result, text: stripUnsafeText(result.text) } }),
      onFinish: (result: JobResult) => {
        if (result.status === 'done' && generation === this.#generation)
          this.#cache.put(key, { before, after }, stripUnsafeText(result.text));
      },
    };
  }

  // ----------------------------------------------------------------- helpers

  #accept(how: 'all' | 'word'): GhostAcceptance {
    const { text, caret } = this.#options;
    return this.acceptFrom({ text, caret, suggestion: this.getSnapshot().suggestion }, how);
  }

  /** The watchers of the add-ons the options name now (none: nothing is tracked, no cost). */
  #addOns(): GhostWatcher[] {
    const { events, pause, adaptDebounce, adaptLength } = this.#options;
    const watchers: GhostWatcher[] = [];
    for (const addOn of [events, pause, adaptDebounce, adaptLength]) {
      if (!addOn) continue;
      let watcher = this.#watchers.get(addOn.start);
      if (!watcher) this.#watchers.set(addOn.start, (watcher = addOn.start(this.#now)));
      watchers.push(watcher);
    }
    return watchers;
  }

  /** `value` (the debounce or the most tokens) as the add-ons adapt it. */
  #adapted(hook: 'debounceMs' | 'maxTokens', value: number): number {
    for (const watcher of this.#addOns()) value = watcher[hook]?.(value, this.#options) ?? value;
    return value;
  }

  /** Whether an add-on (`pause`) holds the engine back now. */
  #paused(): boolean {
    return this.#addOns().some((watcher) => watcher.paused?.(this.#options));
  }

  /** The request for `context`, built only here: when a request is sent or the cache has an entry that may answer it. */
  #build(context: GhostContext): Built {
    const { buildParams = defaultGhostParams } = this.#options;
    const maxTokens = this.#adapted('maxTokens', this.#options.maxTokens ?? 24);
    if (this.#built && this.#built.maxTokens === maxTokens && sameContext(this.#built.context, context)) return this.#built.built;
    let built: Built;
    try {
      const params = buildParams({ ...context, maxTokens });
      built = { params, key: JSON.stringify(params) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      built = { error: new InklingError(`useGhostText's buildParams threw: ${message}`, { cause: error }) };
    }
    this.#built = { context, maxTokens, built };
    return built;
  }

  readonly #keyOf = (context: GhostContext): string | undefined => {
    const built = this.#build(context);
    return 'key' in built ? built.key : undefined;
  };
}
