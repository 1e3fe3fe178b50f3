import type { LanguageModelApi, LanguageModelMessage, LanguageModelSession } from './builtInApis.js';
import { contextLimits } from './contextLimits.js';

/** A session taken for one call, and what to send it. */
export interface OpenedSession {
  readonly session: LanguageModelSession;
  /** The messages still to prompt (all of them on a fresh clone; the new ones on a kept session). */
  readonly input: LanguageModelMessage[];
  /** Tokens the session already held before this call: its system prompt, or a kept conversation. */
  readonly cachedTokens: number;
  /** Whether it is a kept session of the job's `session`, continued. */
  readonly continued: boolean;
}

interface Kept {
  session: LanguageModelSession;
  system: string;
  /** The messages in its context, replies included. */
  history: LanguageModelMessage[];
}

/**
 * The Prompt API sessions of one engine. A base session per system prompt
 * (the root one, made at load, has none) holds that prompt's tokens once;
 * each call clones it, so the system prompt is never read again. A job with
 * a `session` keeps its clone after the call: when its next request extends
 * the conversation (the same messages, then new ones), the kept session gets
 * only what is new (`append()` for all but the last, then a prompt of the
 * last), instead of a whole prompt again. Otherwise the kept clone is
 * destroyed and a fresh one cloned (ghost text: every keystroke a new
 * prompt). At most `maxSessions` are kept, least recently used destroyed
 * first; bases beyond `MAX_BASES` likewise.
 */
export class PromptSessions {
  readonly #api: LanguageModelApi;
  readonly #root: LanguageModelSession;
  readonly #createOptions: Record<string, unknown>;
  readonly #maxSessions: number;
  readonly #bases = new Map<string, Promise<LanguageModelSession>>();
  /** By job session, least recently used first. */
  readonly #kept = new Map<string, Kept>();

  constructor(api: LanguageModelApi, root: LanguageModelSession, createOptions: Record<string, unknown>, maxSessions: number) {
    this.#api = api;
    this.#root = root;
    this.#createOptions = createOptions;
    this.#maxSessions = maxSessions;
  }

  /** How many sessions are kept for job sessions now. */
  get kept(): number {
    return this.#kept.size;
  }

  /** A session for a call of `key` (a job's session, or none) with this system prompt and these messages. */
  async open(system: string, messages: LanguageModelMessage[], key: string | undefined, signal: AbortSignal): Promise<OpenedSession> {
    const kept = key === undefined ? undefined : this.#kept.get(key);
    if (kept && key !== undefined) this.#kept.delete(key);
    if (kept && kept.system === system && continues(kept.history, messages)) {
      const added = messages.slice(kept.history.length);
      const cachedTokens = contextLimits(kept.session).used ?? 0;
      try {
        if (added.length > 1) await kept.session.append(added.slice(0, -1), { signal });
      } catch (error) {
        kept.session.destroy();
        throw error;
      }
      return { session: kept.session, input: added.slice(-1), cachedTokens, continued: true };
    }
    kept?.session.destroy();
    return this.fresh(system, messages, signal);
  }

  /** A fresh clone of the base of `system`. */
  async fresh(system: string, messages: LanguageModelMessage[], signal: AbortSignal): Promise<OpenedSession> {
    const base = await this.#base(system, signal);
    const session = await base.clone({ signal });
    return { session, input: messages, cachedTokens: contextLimits(base).used ?? 0, continued: false };
  }

  /**
   * The call is over. A session of a job `key` that ended well is kept with
   * its conversation; any other (no session, stopped, failed: its context is
   * unknown) is destroyed.
   */
  close(
    opened: OpenedSession,
    key: string | undefined,
    outcome: { ok: boolean; system: string; messages: LanguageModelMessage[]; reply: string },
  ): void {
    if (key === undefined || !outcome.ok) {
      opened.session.destroy();
      return;
    }
    this.#kept.get(key)?.session.destroy();
    this.#kept.delete(key);
    this.#kept.set(key, {
      session: opened.session,
      system: outcome.system,
      history: [...outcome.messages, { role: 'assistant', content: outcome.reply }],
    });
    for (const [oldest, entry] of this.#kept) {
      if (this.#kept.size <= this.#maxSessions) break;
      this.#kept.delete(oldest);
      entry.session.destroy();
    }
  }

  /** Destroys every session: kept ones, bases, the root. */
  async destroyAll(): Promise<void> {
    for (const entry of this.#kept.values()) entry.session.destroy();
    this.#kept.clear();
    const bases = [...this.#bases.values()];
    this.#bases.clear();
    await Promise.all(
      bases.map((base) =>
        base.then(
          (session) => session.destroy(),
          () => {},
        ),
      ),
    );
    this.#root.destroy();
  }

  #base(system: string, signal: AbortSignal): Promise<LanguageModelSession> {
    if (system === '') return Promise.resolve(this.#root);
    const known = this.#bases.get(system);
    if (known) {
      // Most recently used last.
      this.#bases.delete(system);
      this.#bases.set(system, known);
      return known;
    }
    const made = this.#api.create({ ...this.#createOptions, initialPrompts: [{ role: 'system', content: system }], signal });
    this.#bases.set(system, made);
    made.catch(() => {
      if (this.#bases.get(system) === made) this.#bases.delete(system);
    });
    for (const [oldest, base] of this.#bases) {
      if (this.#bases.size <= MAX_BASES) break;
      this.#bases.delete(oldest);
      void base.then(
        (session) => session.destroy(),
        () => {},
      );
    }
    return made;
  }
}

/** Base sessions kept, one per system prompt (an app has a handful: ghost text, chat, its own). */
const MAX_BASES = 4;

/** Whether `messages` is `history` and then at least one new message, the last a user's. */
function continues(history: readonly LanguageModelMessage[], messages: readonly LanguageModelMessage[]): boolean {
  if (messages.length <= history.length || messages.at(-1)?.role !== 'user') return false;
  return history.every((message, i) => message.role === messages[i]?.role && message.content === messages[i]?.content);
}
