import { type GhostContext, stripRepetition } from './ghostPrompt.js';
import { type GhostTextStatus, fitSuggestion, typedSince } from './projectGhostText.js';

/** One request for a suggestion and what the model has said so far (a new object for each change). */
export interface GhostRequest extends GhostContext {
  /** Which request it is: what a job reports is matched to it by this. */
  readonly id: number;
  /** The request's parameters as the cache keys them. */
  readonly key: string;
  readonly raw: string;
  readonly done: boolean;
  /** Served from the session's cache: no engine call behind it. */
  readonly cached?: boolean;
  /** Sent speculatively, for the text a Tab would make. */
  readonly speculative?: boolean;
}

/** What a request shows at a context: the suggestion and the status it has there. */
export interface GhostShowing {
  readonly suggestion: string;
  readonly status: GhostTextStatus;
}

/**
 * What `request` has produced, as it applies to `context`, or `undefined`
 * when it no longer fits (`fitSuggestion`, the one type-through rule).
 *
 * @example
 * suggestionFor({ id: 1, before: 'The', after: '', key, raw: ' quick fox', done: true }, { before: 'The q', after: '' });
 * // { suggestion: 'uick fox', status: 'done' }
 */
export function suggestionFor(request: GhostRequest, context: GhostContext): GhostShowing | undefined {
  const typed = typedSince(request, context);
  if (typed === undefined) return undefined;
  const suggestion = fitSuggestion(stripRepetition(request.raw, request, request.done), typed, request.done);
  if (suggestion === undefined) return undefined;
  const status: GhostTextStatus = request.done ? (suggestion ? 'done' : 'idle') : suggestion ? 'streaming' : 'queued';
  return { suggestion, status };
}
