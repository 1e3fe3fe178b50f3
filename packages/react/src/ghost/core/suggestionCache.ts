import type { GhostContext } from './ghostPrompt.js';

/** How much a `SuggestionCache` keeps. */
export interface SuggestionCacheLimits {
  /** The most suggestions kept. Default `32`. */
  readonly entries: number;
  /** The most bytes kept (UTF-16: two a character, key and reply counted). Default `262144` (256 KiB). */
  readonly bytes: number;
}

/** A cached reply and the text around the caret it applies to. */
export interface CachedSuggestion extends GhostContext {
  /** The model's whole reply (before `stripRepetition`). */
  readonly raw: string;
}

interface Entry {
  readonly key: string;
  readonly raw: string;
  readonly beforeLength: number;
  readonly afterLength: number;
  /** The last characters before the caret: a cheap first check before the key is built again. */
  readonly tail: string;
  readonly bytes: number;
}

const DEFAULT_LIMITS: SuggestionCacheLimits = { entries: 32, bytes: 256 * 1024 };
const TAIL = 32;

/**
 * The suggestions a ghost-text session has already been given, keyed by the
 * request they came from (`key`: the request's parameters, so whatever the
 * prompt depends on), least recently used dropped first, bounded in entries
 * and bytes. It keeps only the key, the reply and a few characters of
 * context, never the note itself.
 *
 * `find` answers for the text on screen: the entry whose request is the one
 * this text would send, else an entry this text types through (its text with
 * characters typed at the caret), which the caller shows the rest of.
 *
 * @example
 * const cache = new SuggestionCache();
 * cache.put(keyOf(context), context, ' brown fox');
 * cache.find({ before: 'The quick b', after: '' }, keyOf); // { before: 'The quick', after: '', raw: ' brown fox' }
 */
export class SuggestionCache {
  readonly #limits: SuggestionCacheLimits;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(limits: Partial<SuggestionCacheLimits> = {}) {
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** How many suggestions it holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many bytes it holds. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether a reply is kept for the request `key`. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Keeps `raw`, the reply to request `key` sent for `context`; the least recently used go past the limits. */
  put(key: string, { before, after }: GhostContext, raw: string): void {
    this.#delete(key);
    const tail = before.slice(-TAIL);
    const bytes = 2 * (key.length + raw.length + tail.length);
    if (bytes > this.#limits.bytes || this.#limits.entries < 1) return;
    this.#entries.set(key, { key, raw, beforeLength: before.length, afterLength: after.length, tail, bytes });
    this.#bytes += bytes;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#limits.entries && this.#bytes <= this.#limits.bytes) break;
      this.#delete(oldest);
    }
  }

  /**
   * The cached reply for `context`: the one to the request `keyOf(context)`
   * names (asked only when an entry was made for text ending in the same
   * characters before the caret, so a keystroke into new text builds no
   * request), else the newest whose request `context` types through and that
   * `fits` (the caller's test that the typed characters start its
   * suggestion). `keyOf` returns `undefined` when no request can be built.
   */
  find(
    context: GhostContext,
    keyOf: (context: GhostContext) => string | undefined,
    fits: (cached: CachedSuggestion) => boolean,
  ): CachedSuggestion | undefined {
    const { before, after } = context;
    // The request is built only when an entry may answer it: one whose last characters before the caret are these.
    let exact: Entry | undefined;
    for (const entry of this.#entries.values()) {
      if (!before.endsWith(entry.tail)) continue;
      const key = keyOf(context);
      exact = key === undefined ? undefined : this.#touch(key);
      break;
    }
    if (exact) return { ...context, raw: exact.raw };
    for (const entry of [...this.#entries.values()].toReversed()) {
      const { beforeLength, tail } = entry;
      if (entry.afterLength !== after.length || beforeLength >= before.length || before.length - beforeLength > entry.raw.length) continue;
      if (before.slice(beforeLength - tail.length, beforeLength) !== tail) continue;
      const candidate = { before: before.slice(0, beforeLength), after, raw: entry.raw };
      if (fits(candidate) && keyOf(candidate) === entry.key) {
        this.#touch(entry.key);
        return candidate;
      }
    }
    return undefined;
  }

  /** Forgets everything (another model, prompt or session). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #touch(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
