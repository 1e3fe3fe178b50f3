import { boundedText } from './bodyChunks.js';
import { fetchWithin } from './fetchWithin.js';
import { smallBodyBounds } from './responseBounds.js';
import type { RequestContext } from './sendRequest.js';

/** The most sessions remembered; the one unused longest is forgotten first. */
const MAX_SESSIONS = 1024;

/**
 * A stable llama.cpp slot per session: a session's first request takes the
 * slot that the fewest remembered sessions hold (the lowest on a tie), and
 * every later one goes back to it, so its prompt stays in that slot's cache.
 * With as many slots as editors, each editor keeps a warm slot of its own.
 *
 * @example
 * const slots = new SessionSlots(2);
 * slots.slotFor('editor-a'); // 0
 * slots.slotFor('editor-b'); // 1
 * slots.slotFor('editor-a'); // 0
 */
export class SessionSlots {
  readonly count: number;
  readonly #bySession = new Map<string, number>();

  constructor(count: number) {
    this.count = count;
  }

  slotFor(session: string): number {
    const known = this.#bySession.get(session);
    if (known !== undefined) {
      // Map order is use order: the oldest is forgotten first.
      this.#bySession.delete(session);
      this.#bySession.set(session, known);
      return known;
    }
    const held = Array.from({ length: this.count }, () => 0);
    for (const slot of this.#bySession.values()) held[slot]! += 1;
    const slot = held.indexOf(Math.min(...held));
    if (this.#bySession.size >= MAX_SESSIONS) this.#bySession.delete(this.#bySession.keys().next().value!);
    this.#bySession.set(session, slot);
    return slot;
  }
}

/**
 * How many slots a llama.cpp server has (`--parallel`): `total_slots` of
 * `GET /props`, else the length of `GET /slots`; `undefined` when neither
 * answers with one (not llama.cpp, or `--no-slots`), and then no `id_slot`
 * is sent. Asked once, when the engine is built, each answer within
 * `connectTimeoutMs` and read within `smallBodyBounds` (a server that never
 * ends one is answered as one that has no slots).
 *
 * @example
 * const count = await discoverSlots(context, signal); // 2 for `llama-server --parallel 2`
 */
export async function discoverSlots(context: RequestContext, signal: AbortSignal | undefined): Promise<number | undefined> {
  const { endpoint, timers, connectTimeoutMs } = context;
  const read = async (path: string): Promise<unknown> => {
    try {
      const response = await fetchWithin((linked) => endpoint.fetch(path, { method: 'GET', root: true, signal: linked }), {
        timers,
        ms: connectTimeoutMs,
        signal,
        onTimeout: () => new Error(`No answer from ${path} in time.`),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        return undefined;
      }
      const { text, cut } = await boundedText(response.body, smallBodyBounds(context));
      return cut ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const props = (await read('/props')) as { total_slots?: unknown } | undefined;
  if (typeof props?.total_slots === 'number' && Number.isInteger(props.total_slots) && props.total_slots > 0) return props.total_slots;
  const slots = await read('/slots');
  return Array.isArray(slots) && slots.length > 0 ? slots.length : undefined;
}
