/** What a speculative request's session adds to the session it is made for. */
const SPECULATION_SUFFIX = ':next';

/**
 * The session of a request made ahead of time for `session` (ghost text asks,
 * while a suggestion is shown, for the one that follows it): its own, so it
 * never supersedes the request the person waits for, and the next
 * speculation supersedes it.
 *
 * @example
 * speculativeSession('editor-a'); // 'editor-a:next'
 */
export function speculativeSession(session: string): string {
  return `${session}${SPECULATION_SUFFIX}`;
}

/**
 * The session whose cache a request uses: a speculative request's editor
 * (see `speculativeSession`), else the session itself. An engine that keeps
 * a cache per session (a llama.cpp slot, a `prompt_cache_key`, a router's
 * affinity) keys it by this, so a speculation warms its editor's cache
 * instead of taking one of its own. A session of your own that ends in
 * `:next` shares the cache of the session before it.
 *
 * @example
 * cacheSessionOf('editor-a:next'); // 'editor-a'
 * cacheSessionOf('editor-a'); // 'editor-a'
 */
export function cacheSessionOf(session: string): string {
  return session.endsWith(SPECULATION_SUFFIX) ? session.slice(0, -SPECULATION_SUFFIX.length) : session;
}
