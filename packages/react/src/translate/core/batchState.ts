import type { InklingError } from '@inkling/scheduler';

/** Where one item of a batch is. `streaming` shows partial text; only `done` text is a translation. */
export type TranslationStatus = 'queued' | 'streaming' | 'done' | 'error' | 'cancelled';

/** One item of a batch. */
export interface TranslationResult {
  readonly source: string;
  /** The translation when `done`; the partial text while `streaming`; else `''`. */
  readonly text: string;
  readonly status: TranslationStatus;
  /** Why it failed when `error`; while `queued`, the passing failure it is being retried after (else `null`). */
  readonly error: InklingError | null;
}

/**
 * `idle`: nothing submitted (no items, or waiting for `start()`). `streaming`:
 * jobs in the pool. Then `done` (every item), `error` (some failed) or
 * `cancelled`.
 */
export type BatchStatus = 'idle' | 'streaming' | 'done' | 'error' | 'cancelled';

/** What a batch shows. */
export interface BatchTranslateState {
  /** One result per item, in the items' order (repeated strings repeat their result). */
  readonly results: readonly TranslationResult[];
  /** Items `done`, of all items. */
  readonly progress: { readonly done: number; readonly total: number };
  readonly status: BatchStatus;
}
