import type { InklingError } from '@inkling/scheduler';

/** Where a shown suggestion came from: a request to the engine, the session's cache, or the speculative request made before a Tab. */
export type GhostSuggestionSource = 'engine' | 'cache' | 'speculation';

/** Why a shown suggestion was turned down: other text typed (or deleted) over it, Escape, or the caret moved elsewhere. */
export type GhostRejection = 'typedOver' | 'escape' | 'caretMoved';

/** What every ghost-text event carries: which suggestion, in which session, from which model and prompt builder. */
export interface GhostEventBase {
  /**
   * The suggestion's number within the controller (1, 2, …; the same on every
   * event about it). What a request streams after its suggestion was accepted
   * whole while still streaming is another suggestion, with its own number.
   */
  readonly suggestion: number;
  readonly session: string;
  /** The `model` option (`useGhostText` passes `<PoolProvider modelId>`). */
  readonly model: string;
  /** The `buildParams` function's name (`defaultGhostParams` by default; `''` for an unnamed one). */
  readonly promptBuilder: string;
}

/**
 * What happened to one suggestion, in order: `shown` once (when it is
 * whole, or when it goes before being whole), `typedThrough` and `accepted`
 * (`how: 'word'`) any number of times, then at most one of `accepted`
 * (`how: 'all'`), `rejected`, `superseded` or `failed` (a word accepted
 * that was all of it, while more streamed, ends it too). A request that never
 * showed anything ends `superseded` or `failed` without `shown`. Times are in
 * ms from the keystroke (or Tab) that led to it. No text of the person's or
 * the model's is in an event unless `ghostEvents` was given `text: true`.
 *
 * @example
 * const log = (event: GhostTextEvent) => {
 *   if (event.type === 'shown') console.log(`#${event.suggestion} from ${event.source} in ${event.firstGlyphMs} ms`);
 *   if (event.type === 'rejected') console.log(`#${event.suggestion} turned down: ${event.reason}`);
 * };
 * useGhostText({ session: 'notes', text, events: ghostEvents(log) });
 */
export type GhostTextEvent =
  | (GhostEventBase & {
      readonly type: 'shown';
      readonly source: GhostSuggestionSource;
      /** How many characters it offered in all (typed through before it was whole included). */
      readonly characters: number;
      readonly firstGlyphMs: number;
      /** `null` when it went before it was whole. */
      readonly wholeMs: number | null;
      /** The suggestion, with `ghostEvents(…, { text: true })` only. */
      readonly text?: string;
    })
  | (GhostEventBase & {
      readonly type: 'accepted';
      readonly how: 'all' | 'word';
      readonly characters: number;
      /** What was inserted, with `ghostEvents(…, { text: true })` only. */
      readonly text?: string;
    })
  | (GhostEventBase & { readonly type: 'typedThrough'; readonly characters: number })
  | (GhostEventBase & { readonly type: 'rejected'; readonly reason: GhostRejection; readonly characters: number })
  | (GhostEventBase & { readonly type: 'superseded' })
  | (GhostEventBase & { readonly type: 'failed'; readonly error: InklingError | null });

/** The session's names, stamped on every event. */
export type GhostEventLabels = Omit<GhostEventBase, 'suggestion'>;
