import { type ButtonHTMLAttributes, type HTMLAttributes, type ProgressHTMLAttributes, useState } from 'react';
import type { TranslationResult, TranslationStatus } from './core/batchTranslateController.js';
import type { DataAttributes } from '../base/dataAttributes.js';
import { type UseBatchTranslateOptions, type UseBatchTranslateResult, useBatchTranslate } from './useBatchTranslate.js';
import { useModelLoad } from '../model/useModelLoad.js';

/** Words `TranslateList` shows; translate them here. */
export interface TranslateListLabels {
  /** The list's accessible name. */
  list: string;
  source: string;
  translation: string;
  status: string;
  start: string;
  cancel: string;
  retry: string;
  /** The progress line, e.g. `3 of 10 translated`. */
  progress: (done: number, total: number) => string;
  /** Each item's status in words. */
  statuses: Record<TranslationStatus, string>;
  /** A queued item being tried again after a passing failure (a server busy or not answering yet). */
  retrying: string;
  /**
   * An item that failed while the pool's model is not loaded (its load failed, or the error's
   * `phase` is `'load'`): a few words per row, since the reason is the model's, shown once where
   * the model's state is. Default `'The model did not load.'`.
   */
  notLoaded: string;
}

const DEFAULT_LABELS: TranslateListLabels = {
  list: 'Translations',
  source: 'Source',
  translation: 'Translation',
  status: 'Status',
  start: 'Translate',
  cancel: 'Cancel',
  retry: 'Retry',
  progress: (done, total) => `${done} of ${total} translated`,
  retrying: 'Retrying…',
  notLoaded: 'The model did not load.',
  statuses: { queued: 'Queued', streaming: 'Translating…', done: 'Done', error: 'Failed', cancelled: 'Cancelled' },
};

/** Props of `useTranslateList` and `TranslateList`. */
export interface TranslateListProps extends Omit<UseBatchTranslateOptions, 'task'> {
  /** The pool task the whole batch runs under. Default `'translate-list'`. */
  task?: string;
  /** Words shown. Default: English. */
  labels?: Partial<TranslateListLabels>;
  /** Class of the wrapper. */
  className?: string;
}

/** One row of the list, with its props. The same object from render to render while nothing of it changes. */
export interface TranslateListRow extends TranslationResult {
  /** For the row: `data-status`. */
  rowProps: HTMLAttributes<HTMLTableRowElement> & DataAttributes;
  /** For the source cell: `lang` when `from` is a language code. */
  sourceProps: HTMLAttributes<HTMLElement>;
  /** For the translation cell: `lang` when `to` is a language code. */
  translationProps: HTMLAttributes<HTMLElement>;
  /** The status in words. */
  statusLabel: string;
  /** Why it failed, in words; `undefined` without an error. */
  errorText: string | undefined;
}

/** What `useTranslateList` returns. */
export interface TranslateListAria {
  batch: UseBatchTranslateResult;
  labels: TranslateListLabels;
  rootProps: HTMLAttributes<HTMLDivElement> & DataAttributes;
  progressProps: ProgressHTMLAttributes<HTMLProgressElement>;
  /** The progress line in words. */
  progressLabel: string;
  /**
   * A polite live region (`role="status"`, visually hidden) that says the
   * progress line once the batch has ended ("9 of 9 translated") and is
   * empty while it runs, so a screen reader hears the end, not every row.
   */
  announcerProps: HTMLAttributes<HTMLSpanElement> & { children: string };
  /** Starts the items not done (shown when `enabled` is false or something is left to do). */
  startButtonProps: ButtonHTMLAttributes<HTMLButtonElement>;
  cancelButtonProps: ButtonHTMLAttributes<HTMLButtonElement>;
  retryButtonProps: ButtonHTMLAttributes<HTMLButtonElement>;
  rows: TranslateListRow[];
}

/** A BCP 47 code that can go in `lang` (a name such as `'French'` cannot). */
function langOf(language: string | undefined): string | undefined {
  return language && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language) ? language : undefined;
}

/** What a row is made of besides its result. */
interface RowContext {
  readonly statuses: TranslateListLabels['statuses'];
  readonly retrying: string;
  readonly notLoaded: string;
  /** The pool's load error: while there is one, a failed row says `notLoaded`, not a message of its own. */
  readonly loadError: Error | null;
  readonly lang: string | undefined;
  readonly sourceLang: string | undefined;
}

function buildRow(result: TranslationResult, index: number, context: RowContext): TranslateListRow {
  const { statuses, retrying, lang, sourceLang } = context;
  const retried = result.status === 'queued' && result.error !== null;
  return {
    errorText: errorText(result.error, context),
    ...result,
    rowProps: { 'data-status': result.status, 'data-index': String(index), ...(retried ? { 'data-retrying': 'true' } : {}) },
    sourceProps: { lang: sourceLang },
    translationProps: { lang },
    statusLabel: retried ? retrying : statuses[result.status],
  };
}

/** Why a row failed: a few words while the model is not loaded (said in full where the model's state is), else the error's message. */
function errorText(error: Error | null | undefined, { notLoaded, loadError }: RowContext): string | undefined {
  if (!error) return undefined;
  // While the pool is in error, its message (shown where the model's state is) says why every row failed.
  return loadError !== null || (error as { phase?: unknown }).phase === 'load' ? notLoaded : error.message;
}

/** Last render's rows and what they were built from. */
interface RowCache {
  results: readonly TranslationResult[];
  rows: TranslateListRow[];
  context: RowContext | undefined;
}

function sameContext(a: RowContext | undefined, b: RowContext): boolean {
  if (!a || a.lang !== b.lang || a.sourceLang !== b.sourceLang || a.retrying !== b.retrying || a.notLoaded !== b.notLoaded) return false;
  if (a.loadError !== b.loadError) return false;
  for (const status of Object.keys(b.statuses) as TranslationStatus[]) if (a.statuses[status] !== b.statuses[status]) return false;
  return true;
}

/**
 * Rows for `results`, reusing last render's row wherever its result is the
 * same object (the controller makes a new one only for an item that
 * changed), so a memoized row component renders only the rows that did.
 */
function reuseRows(cache: RowCache, results: readonly TranslationResult[], context: RowContext): TranslateListRow[] {
  if (cache.results === results && sameContext(cache.context, context)) return cache.rows;
  const reuse = sameContext(cache.context, context);
  const rows = results.map((result, index) => {
    const row = cache.rows[index];
    return reuse && row && cache.results[index] === result ? row : buildRow(result, index, context);
  });
  cache.results = results;
  cache.rows = rows;
  cache.context = context;
  return rows;
}

/**
 * The behaviour of a batch translation list: `useBatchTranslate` plus prop
 * bags for a progress bar, start, cancel and retry buttons (each disabled
 * when it has nothing to do) and a row per item with its status. Needs a
 * `<PoolProvider>`.
 *
 * @example
 * const list = useTranslateList({ items, to: 'fr' });
 * <progress {...list.progressProps} />
 * <button {...list.cancelButtonProps}>{list.labels.cancel}</button>
 */
export function useTranslateList(props: TranslateListProps): TranslateListAria {
  const { task = 'translate-list', labels: custom, className, ...options } = props;
  const batch = useBatchTranslate({ ...options, task });
  const loadError = useModelLoad().error;
  const labels = { ...DEFAULT_LABELS, ...custom, statuses: { ...DEFAULT_LABELS.statuses, ...custom?.statuses } };
  const { done, total } = batch.progress;
  const running = batch.status === 'streaming';
  const retryable = batch.results.some((r) => r.status === 'error' || r.status === 'cancelled');
  const startable = !running && batch.results.some((r) => r.status === 'queued');
  const lang = langOf(options.to);
  const sourceLang = langOf(options.from);
  const progressLabel = labels.progress(done, total);
  // The rows of the last render, to reuse. They are pure values of their
  // inputs, so a render React throws away leaves nothing wrong in the cache.
  const [cache] = useState<RowCache>(() => ({ results: [], rows: [], context: undefined }));
  const rows = reuseRows(cache, batch.results, {
    statuses: labels.statuses,
    retrying: labels.retrying,
    notLoaded: labels.notLoaded,
    loadError,
    lang,
    sourceLang,
  });
  return {
    batch,
    labels,
    rootProps: {
      'data-status': batch.status,
      className: className ? `inkling-translate-list ${className}` : 'inkling-translate-list',
    },
    progressProps: { value: done, max: Math.max(total, 1), 'aria-label': progressLabel, className: 'inkling-progress' },
    progressLabel,
    announcerProps: {
      role: 'status',
      className: 'inkling-visually-hidden',
      children: total > 0 && batch.status !== 'idle' && !running ? progressLabel : '',
    },
    startButtonProps: { type: 'button', disabled: !startable, onClick: batch.start },
    cancelButtonProps: { type: 'button', disabled: !running, onClick: batch.cancel },
    retryButtonProps: { type: 'button', disabled: running || !retryable, onClick: batch.retry },
    rows,
  };
}
