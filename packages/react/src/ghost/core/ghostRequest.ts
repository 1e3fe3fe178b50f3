import { type GhostContext, stripRepetition } from './ghostPrompt.js';
import { type GhostTextStatus, typedSince } from './projectGhostText.js';

/** One request for a suggestion and what the model has said so far. */
export interface GhostRequest extends GhostContext {
  /** The request's parameters as the cache keys them. */
  readonly key: string;
  raw: string;
  done: boolean;
  /** Served from the session's cache: no engine call behind it. */
  readonly cached?: boolean;
}

/** What a request shows at a context: the suggestion and the status it has there. */
export interface GhostShowing {
  readonly suggestion: string;
  readonly status: GhostTextStatus;
}

/**
 * What `request` has produced, as it applies to `context`, or `undefined`
 * when it no longer fits: the text was not typed through its suggestion, or
 * the suggestion has been typed in full (time for the next one).
 *
 * @example
 * suggestionFor({ before: 'The', after: '', key, raw: ' quick fox', done: true }, { before: 'The q', after: '' });
 * // { suggestion: 'uick fox', status: 'done' }
 */
export function suggestionFor(request: GhostRequest, context: GhostContext): GhostShowing | undefined {
  const typed = typedSince(request, context);
  if (typed === undefined) return undefined;
  const full = stripRepetition(request.raw, request, request.done);
  let suggestion: string;
  if (full.startsWith(typed)) suggestion = full.slice(typed.length);
  else if (!request.done && typed.startsWith(full)) suggestion = ''; // typing ahead of the stream
  else return undefined;
  if (request.done && !suggestion && typed) return undefined;
  const status: GhostTextStatus = request.done ? (suggestion ? 'done' : 'idle') : suggestion ? 'streaming' : 'queued';
  return { suggestion, status };
}
