import { type ChatCompletionRequest, type Pool, InklingError, type JobResult } from '@inkling/scheduler';
import { BatchResults, type ItemResult } from './batchResults.js';
import type { BatchStatus, BatchTranslateState, TranslationResult } from './batchState.js';
import { type ResultCache, inklingKeys } from '../../base/core/cacheKeys.js';
import type { FrameScheduler } from '../../base/core/frameScheduler.js';
import { Store } from '../../base/core/store.js';
import { StreamedJob } from '../../base/core/streamedJob.js';
import type { TranslateParamsInput } from './translatePrompt.js';

export type { BatchStatus, BatchTranslateState, TranslationResult, TranslationStatus } from './batchState.js';

/** Options of a `BatchTranslateController` (and of `useBatchTranslate`). */
export interface BatchTranslateOptions {
  /** The pool task every item runs under: the batch holds at most one engine. */
  task: string;
  /** The strings to translate. */
  items: readonly string[];
  /** Target language: a BCP 47 code (`'fr'`) or a name. */
  to: string;
  /** Source language. Default: the model works it out (`'auto'` in cache keys). */
  from?: string;
  /** Start as soon as there are items (and again when they change). Off: wait for `start()`. Default `true`. */
  enabled?: boolean;
  /**
   * Builds each item's chat request, for a prompt of your own: items then run
   * as chat jobs. Default: none, and items run as translation jobs (`kind:
   * 'translation'`), which an engine that translates natively (Chrome's
   * Translator API) runs as they are and a chat engine turns into
   * `defaultTranslateParams`. Cache keys do not see it.
   */
  buildParams?: (input: TranslateParamsInput) => ChatCompletionRequest;
  /**
   * Let interactive work (ghost text) interrupt an item when no engine is
   * free; the item starts over. Off, interactive work waits for the item to
   * finish. Default `true`.
   */
  preemptible?: boolean;
}

/** What a `BatchTranslateController` is built with besides its options. */
export interface BatchTranslateEnvironment {
  /** Where finished items are kept and looked up. Default: nowhere. */
  cache?: ResultCache;
  /** The model part of cache keys. Default `'default'`. */
  modelId?: string;
  scheduleFrame?: FrameScheduler;
}

type Action = { type: 'items'; results: readonly TranslationResult[] } | { type: 'item'; source: string; result: ItemResult };

const QUEUED = { text: '', status: 'queued', error: null } as const;
/** A blank or whitespace-only item: done, with nothing to show. */
const BLANK = { text: '', status: 'done', error: null } as const;

/** Retryable failures of one item resubmitted in a row before it shows as `error`. */
const MAX_RETRIES = 2;

/** Whether an error says trying again may pass (`retryable: true`, as the OpenAI adapter's do). */
function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

function isBlank(source: string): boolean {
  return source.trim() === '';
}

/**
 * Translates a list of strings as one pool task, at normal priority and
 * preemptible, so ghost text and other interactive work cut in between
 * tokens. A preempted item is resubmitted at once and shows as `queued`
 * again, never as done with partial text; so is one that failed with an
 * error marked `retryable: true` (twice in a row at most, then it shows the
 * error). Finished items go to the cache
 * under model, languages and text, so a repeated string costs no engine call.
 *
 * Listeners hear of item changes at most once a frame, and at once when the
 * batch's status changes (it starts, ends, fails); one item's change costs
 * the same however long the list is.
 *
 * @example
 * const options = { task: 'page', items: ['Hello', 'Bye'], to: 'fr' };
 * const batch = new BatchTranslateController(pool, options); // does nothing yet
 * batch.setOptions(options); // starts (as the hook's effect does)
 * batch.subscribe(() => console.log(batch.getSnapshot().progress));
 */
export class BatchTranslateController extends Store<BatchTranslateState> {
  readonly #pool: Pool;
  readonly #environment: BatchTranslateEnvironment;
  #options: BatchTranslateOptions;
  /** Jobs in flight, by source string; a stopped one is heard from no more. */
  readonly #jobs = new Map<string, StreamedJob>();
  /** Sources whose jobs a disposal stopped, resumed by the next mount. */
  #interrupted: string[] = [];
  #applied: BatchTranslateOptions | undefined;
  /** The results as they are now; the snapshot is a copy made when read. */
  #results: BatchResults;
  /** The status listeners last heard of: a change of it is told at once. */
  #status: BatchStatus;
  /** Retryable failures in a row, by source (at most `MAX_RETRIES` are resubmitted). */
  readonly #retries = new Map<string, number>();

  constructor(pool: Pool, options: BatchTranslateOptions, environment: BatchTranslateEnvironment = {}) {
    // Reading the cache is not work: a remount shows cached items in its first render.
    const results = new BatchResults(options.items.map((source) => initialResult(source, options, environment)));
    const initial = results.snapshot(false);
    super(initial, environment.scheduleFrame);
    this.#results = results;
    this.#status = initial.status;
    this.#pool = pool;
    this.#options = options;
    this.#environment = environment;
  }

  /** Takes new items and languages; keeps work on items that stay, cancels the rest. */
  setOptions(options: BatchTranslateOptions): void {
    this.#options = options;
    const previous = this.#applied;
    const languagesChanged = !previous || previous.to !== options.to || previous.from !== options.from;
    if (!languagesChanged && previous.enabled === options.enabled && sameItems(previous.items, options.items)) return;
    this.#applied = options;
    const keep = new Set(options.items);
    for (const [source, job] of this.#jobs) {
      if (languagesChanged || !keep.has(source)) {
        this.#jobs.delete(source);
        job.stop();
      }
    }
    const known = languagesChanged ? undefined : this.#results;
    const results = options.items.map((source) => initialResult(source, options, this.#environment, known?.get(source)));
    this.#dispatch({ type: 'items', results });
    if (options.enabled !== false) this.#submit((r) => r.status === 'queued');
  }

  /** Submits every item not done and not already in the pool. Bound. */
  readonly start = (): void => this.#submit((r) => r.status !== 'done');

  /** Submits the items that failed or were cancelled. Bound. */
  readonly retry = (): void => this.#submit((r) => r.status === 'error' || r.status === 'cancelled');

  /** Cancels every item not done yet. Bound. */
  readonly cancel = (): void => {
    for (const job of this.#jobs.values()) job.stop();
    this.#jobs.clear();
    this.#interrupted = [];
    const results = this.#results.all.map((r) => (r.status === 'done' ? r : { ...r, text: '', status: 'cancelled' as const, error: null }));
    this.#dispatch({ type: 'items', results });
  };

  /** A listener arrived again: resume the work a disposal stopped. */
  protected override onStart(): void {
    const interrupted = new Set(this.#interrupted);
    this.#interrupted = [];
    if (interrupted.size > 0) this.#submit((r) => interrupted.has(r.source));
  }

  /** The last listener left (after StrictMode's rehearsal, for good): stop, to resume on the next. */
  protected override onStop(): void {
    this.dispose();
  }

  /** Cancels the jobs in flight (the next listener resumes them) and any pending notification. */
  dispose(): void {
    this.#interrupted = [...this.#jobs.keys()];
    for (const job of this.#jobs.values()) job.stop();
    this.#jobs.clear();
    this.cancelPendingFrame();
  }

  // ----------------------------------------------------------------- internals

  #cached(source: string): string | undefined {
    return cachedTranslation(source, this.#options, this.#environment);
  }

  #submit(which: (result: TranslationResult) => boolean): void {
    const sources = new Set<string>();
    for (const result of this.#results.all) if (which(result) && !this.#jobs.has(result.source)) sources.add(result.source);
    for (const source of sources) this.#run(source);
  }

  #run(source: string, retryingAfter: InklingError | null = null): void {
    if (isBlank(source)) {
      // Nothing to translate: a model asked for it answers "Please provide the text".
      this.#item(source, BLANK);
      return;
    }
    const cached = this.#cached(source);
    if (cached !== undefined) {
      this.#item(source, { text: cached, status: 'done', error: null });
      return;
    }
    const job = new StreamedJob();
    this.#jobs.set(source, job);
    this.#item(source, retryingAfter ? { ...QUEUED, error: retryingAfter } : QUEUED);
    const { to, from, buildParams } = this.#options;
    const base = { task: this.#options.task, priority: 'normal' as const, preemptible: this.#options.preemptible !== false };
    const handlers = {
      onText: (text: string) => this.#item(source, { text, status: 'streaming', error: null }),
      onEnd: (result: JobResult) => this.#finished(source, result),
    };
    if (!buildParams) {
      const params = from === undefined ? { text: source, to } : { text: source, to, from };
      void job.start(this.#pool, { ...base, kind: 'translation', params }, handlers);
      return;
    }
    let params: ChatCompletionRequest;
    try {
      params = buildParams({ text: source, to, from });
    } catch (error) {
      this.#jobs.delete(source);
      const message = error instanceof Error ? error.message : String(error);
      this.#item(source, {
        text: '',
        status: 'error',
        error: new InklingError(`useBatchTranslate's buildParams threw: ${message}`, { cause: error }),
      });
      return;
    }
    void job.start(this.#pool, { ...base, params }, handlers);
  }

  /** An item's job ended while it was still wanted. */
  #finished(source: string, result: JobResult): void {
    this.#jobs.delete(source);
    const retries = this.#retries.get(source) ?? 0;
    this.#retries.delete(source);
    if (result.status === 'error' && isRetryable(result.error) && retries < MAX_RETRIES) {
      // A passing failure (a server busy or still loading): once more, as after a preemption.
      this.#retries.set(source, retries + 1);
      this.#run(source, result.error ?? null);
      return;
    }
    switch (result.status) {
      case 'preempted':
        // Interactive work took the engine mid-item: start the item over.
        this.#run(source);
        return;
      case 'done': {
        const text = result.text.trim();
        const { cache, modelId = 'default' } = this.#environment;
        cache?.write(inklingKeys.translation(modelId, this.#options.from, this.#options.to, source), text);
        this.#item(source, { text, status: 'done', error: null });
        return;
      }
      case 'error':
        this.#item(source, { text: '', status: 'error', error: result.error ?? null });
        return;
      case 'cancelled':
        this.#item(source, { text: '', status: 'cancelled', error: null });
        return;
    }
  }

  #item(source: string, result: ItemResult): void {
    this.#dispatch({ type: 'item', source, result });
  }

  #dispatch(action: Action): void {
    const live = this.#jobs.size > 0;
    if (action.type === 'items') {
      this.#results = new BatchResults(action.results);
      const next = this.#results.snapshot(live);
      this.#status = next.status;
      this.commit(next, 'now');
      return;
    }
    const changed = this.#results.set(action.source, action.result);
    const status = this.#results.status(live);
    if (!changed && status === this.#status) return;
    // The batch starting, ending or failing is told at once; item progress once a frame.
    const urgency = status === this.#status ? 'frame' : 'now';
    this.#status = status;
    const results = this.#results;
    this.commitLazy(() => results.snapshot(live), urgency);
  }
}

function cachedTranslation(source: string, options: BatchTranslateOptions, environment: BatchTranslateEnvironment): string | undefined {
  const { cache, modelId = 'default' } = environment;
  const value = cache?.read(inklingKeys.translation(modelId, options.from, options.to, source));
  return typeof value === 'string' ? value : undefined;
}

/** An item's result before any work: blank (done), cached, else as it was, else queued. */
function initialResult(
  source: string,
  options: BatchTranslateOptions,
  environment: BatchTranslateEnvironment,
  known?: TranslationResult,
): TranslationResult {
  if (isBlank(source)) return { source, ...BLANK };
  if (known?.status === 'done') return known; // the same object: its row need not render again
  const cached = cachedTranslation(source, options, environment);
  if (cached !== undefined) return { source, text: cached, status: 'done', error: null };
  return known ?? { source, ...QUEUED };
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((item, i) => item === b[i]));
}
