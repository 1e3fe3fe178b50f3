/** One prompt llama.cpp keeps in its host-memory prompt cache, as the meter sees it. */
interface CachedPrompt {
  text: string;
  tokens: number;
}

/** llama.cpp saves the slot's prompt when a new one keeps less than this share of it. */
const SAVE_BELOW_KEPT = 0.5;
/** llama.cpp never restores a cached prompt that would keep less than this share of it. */
const RESTORE_MIN_KEPT = 0.25;

/**
 * Follows what llama.cpp's host-memory prompt cache holds in a wllama worker
 * (one slot), from the prompts the engine sends, by llama.cpp's own rules
 * (`server_context::get_available_slot`, `server_prompt_cache::alloc`/`load`,
 * `--cache-ram` 8 GiB, which wllama 3.13 cannot lower): when a new prompt keeps
 * less than half of what the slot holds, the slot's prompt is saved (unless a
 * cached one already contains it; cached ones it contains are dropped), and the
 * cached prompt that keeps the most of the new one is restored and leaves the
 * cache. Typing at the end of a note saves nothing; an edit mid-note saves the
 * note as it was. Prompts are compared as text and counted in tokens from the
 * last usage llama.cpp reported (tokens per character), so `bytes` is an
 * estimate: the saved tokens times the model's KV bytes per token.
 *
 * @example
 * const meter = new PromptCacheMeter(6144);
 * meter.send(promptText);
 * meter.settle({ prompt_tokens: 530, completion_tokens: 8 });
 * if (meter.bytes > budget) recycle();
 */
export class PromptCacheMeter {
  readonly #bytesPerToken: number;
  #cached: CachedPrompt[] = [];
  #slot: CachedPrompt = { text: '', tokens: 0 };
  #tokensPerChar = 0.3;

  /** `bytesPerToken`: what one token of a saved prompt costs (see `kvBytesPerToken`). */
  constructor(bytesPerToken: number) {
    this.#bytesPerToken = bytesPerToken;
  }

  /** Estimated bytes of the prompts llama.cpp holds in its cache now. */
  get bytes(): number {
    return this.#cached.reduce((sum, p) => sum + p.tokens, 0) * this.#bytesPerToken;
  }

  /** How many prompts llama.cpp holds in its cache now. */
  get prompts(): number {
    return this.#cached.length;
  }

  /** A chat call sends `prompt` (the request's messages as text, see `promptText`). */
  send(prompt: string): void {
    const slot = this.#slot;
    const kept = commonPrefixLength(slot.text, prompt) * this.#tokensPerChar;
    if (slot.tokens > 0 && kept < SAVE_BELOW_KEPT * slot.tokens) {
      this.#save(slot);
      this.#restore(prompt, kept, slot.tokens);
    }
    this.#slot = { text: prompt, tokens: prompt.length * this.#tokensPerChar };
  }

  /** The call ended; `usage` where llama.cpp gave it (an aborted call has none: the estimate stays). */
  settle(usage: { prompt_tokens: number; completion_tokens: number } | undefined): void {
    if (!usage || !(usage.prompt_tokens > 0) || this.#slot.text === '') return;
    this.#tokensPerChar = usage.prompt_tokens / this.#slot.text.length;
    this.#slot.tokens = usage.prompt_tokens + Math.max(0, usage.completion_tokens);
  }

  /** A fresh worker: nothing cached, an empty slot. */
  reset(): void {
    this.#cached = [];
    this.#slot = { text: '', tokens: 0 };
  }

  #save(slot: CachedPrompt): void {
    if (this.#cached.some((p) => p.text.length >= slot.text.length && p.text.startsWith(slot.text))) return;
    this.#cached = this.#cached.filter((p) => !(p.text.length <= slot.text.length && slot.text.startsWith(p.text)));
    this.#cached.push({ ...slot });
  }

  /** The cached prompt llama.cpp would load for `prompt` leaves the cache. */
  #restore(prompt: string, slotKept: number, slotTokens: number): void {
    let keepBest = slotKept / slotTokens;
    let simBest = slotKept / Math.max(1, prompt.length * this.#tokensPerChar);
    let best = -1;
    this.#cached.forEach((p, i) => {
      const lcp = commonPrefixLength(p.text, prompt);
      const keep = lcp / Math.max(1, p.text.length);
      const sim = lcp / Math.max(1, prompt.length);
      if (keep < RESTORE_MIN_KEPT) return;
      if (keepBest < keep && simBest < sim) {
        keepBest = keep;
        simBest = sim;
        best = i;
      }
    });
    if (best >= 0) this.#cached.splice(best, 1);
  }
}

/** Length of the longest common prefix of `a` and `b`. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/**
 * A chat request's messages as one text, in order, for comparing prompts
 * (roles and text parts; llama.cpp's template adds about the same to each).
 *
 * @example
 * promptText([{ role: 'user', content: 'hi' }]); // 'user\nhi\n\n'
 */
export function promptText(messages: readonly unknown[]): string {
  let text = '';
  for (const message of messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    text += `${String(role)}\n${contentText(content)}\n\n`;
  }
  return text;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : '')).join('');
}
