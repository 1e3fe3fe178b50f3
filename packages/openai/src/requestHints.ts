import { type JobIdentity } from '@inkling/scheduler';
import { cacheSessionOf } from '@inkling/scheduler/engine';
import { type PriorityMapping, setPath } from './serverPriority.js';
import type { SessionSlots } from './sessionSlots.js';

/** What an engine tells the server about each job, from `openaiEngines`' options. */
export interface RequestHints {
  readonly priority: PriorityMapping | undefined;
  /** Send the session as `prompt_cache_key`. */
  readonly promptCacheKey: boolean;
  /** Send the session in this header. */
  readonly affinityHeader: string | undefined;
  readonly cacheSalt: string | undefined;
  /** llama.cpp: `cache_prompt: true`, and `id_slot` per session once the slots are known. */
  readonly llamaSlots: boolean;
  /** The session-to-slot map, once the server's slot count is known. */
  slots: SessionSlots | undefined;
}

/**
 * Adds the job's hints to a request `body` (in place) and returns the headers
 * to send with it. A job called by hand (no `job`) gets the fixed hints
 * (`cache_salt`, `cache_prompt`) and no per-job ones. Nothing is added for
 * an option that is off, so a server that rejects unknown fields sees the
 * same body as before. The session sent (cache key, affinity header, slot)
 * is `cacheSessionOf(job.session)`: a speculation shares its editor's.
 *
 * @example
 * const headers = applyHints(body, options.job, hints);
 */
export function applyHints(body: Record<string, unknown>, job: JobIdentity | undefined, hints: RequestHints): Record<string, string> {
  const headers: Record<string, string> = {};
  const { priority, cacheSalt } = hints;
  if (cacheSalt !== undefined) body.cache_salt = cacheSalt;
  if (hints.llamaSlots) body.cache_prompt = true;
  if (!job) return headers;
  if (priority?.field !== undefined) setPath(body, priority.field, priority.map[job.priority]);
  if (priority?.header !== undefined) headers[priority.header] = String(priority.map[job.priority]);
  if (job.session === undefined) return headers;
  // A speculative request (ghost text's next suggestion) uses its editor's slot and cache: it warms them for what comes next.
  const session = cacheSessionOf(job.session);
  if (hints.promptCacheKey) body.prompt_cache_key = session;
  // Percent-encoded: fetch refuses a header value with a line break or a character past Latin-1.
  if (hints.affinityHeader !== undefined) headers[hints.affinityHeader] = encodeURIComponent(session);
  if (hints.slots) body.id_slot = hints.slots.slotFor(session);
  return headers;
}
