/** One engine call in flight: its own signal, and how to end it. */
export interface CallHandle {
  /** Aborted by the caller's signal, by `interrupt()` on the set, or by `abort()`. */
  readonly signal: AbortSignal;
  /** Stops this call alone. */
  abort(): void;
  /** The call is over: unlinks it from the caller's signal and from the set. Safe to call twice. */
  release(): void;
}

/**
 * The calls an engine has in flight, each with an `AbortController` of its own
 * linked to the caller's signal, so `interruptGenerate()` stops every call and
 * a job's signal stops just its own. Every adapter whose engine runs calls in
 * the page (a server, wllama's worker, the browser's own model) keeps one.
 *
 * @example
 * const calls = new CallsInFlight();
 * const call = calls.open(options.signal); // throws nothing: an aborted signal gives an aborted call
 * try { await fetch(url, { signal: call.signal }); } finally { call.release(); }
 * calls.interrupt(); // from interruptGenerate(): aborts every call still open
 */
export class CallsInFlight {
  readonly #calls = new Set<AbortController>();

  /** How many calls are open. */
  get size(): number {
    return this.#calls.size;
  }

  /** Opens one call, linked to `outer` (already aborted: the call starts aborted). */
  open(outer?: AbortSignal): CallHandle {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    if (outer?.aborted) controller.abort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    this.#calls.add(controller);
    return {
      signal: controller.signal,
      abort: () => controller.abort(),
      release: () => {
        outer?.removeEventListener('abort', onAbort);
        this.#calls.delete(controller);
      },
    };
  }

  /** Aborts every call still open (they stay open until each is released). */
  interrupt(): void {
    for (const controller of [...this.#calls]) controller.abort();
  }
}
