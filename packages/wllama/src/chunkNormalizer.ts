import { type ChatCompletionChunk, type CompletionUsage, type FinishReason } from '@inkling/scheduler';
import { streamChunk, usageChunk } from '@inkling/scheduler/engine';

const REASONS: ReadonlySet<string> = new Set(['stop', 'length', 'abort', 'tool_calls']);

/**
 * Turns llama.cpp's streamed chat chunks (as wllama passes them on) into the
 * chunks a WebLLM engine emits, so every engine looks alike to `onChunk`:
 * content chunks with `finish_reason: null`; one finish chunk with empty
 * content and the reason; then one usage chunk (`choices: []`) whose
 * `usage.extra.timings` keeps llama.cpp's timings, `cache_n` (prompt tokens
 * reused from the previous request) and `prompt_n` (prompt tokens read) among
 * them; `usage.cachedTokens` is `cache_n`, where llama.cpp gave it.
 *
 * @example
 * const normalizer = new ChunkNormalizer('model.gguf');
 * for (const chunk of normalizer.push(raw)) onChunk(chunk);
 * for (const chunk of normalizer.end('abort')) onChunk(chunk);
 */
export class ChunkNormalizer {
  #id = '';
  #created = 0;
  readonly #model: string;
  #finish: FinishReason | undefined;
  #usage: CompletionUsage | undefined;
  #timings: Record<string, unknown> | undefined;
  #contentChunks = 0;

  constructor(model: string) {
    this.#model = model;
  }

  /** Content chunks produced so far (about one per token). */
  get contentChunks(): number {
    return this.#contentChunks;
  }

  /** Folds in one llama.cpp chunk; returns the WebLLM-shaped chunks it makes. */
  push(raw: unknown): ChatCompletionChunk[] {
    if (!raw || typeof raw !== 'object') return [];
    const r = raw as Record<string, unknown>;
    if (typeof r.id === 'string' && !this.#id) this.#id = r.id;
    if (typeof r.created === 'number' && !this.#created) this.#created = r.created;
    this.#takeUsage(r.usage, r.timings);
    const choice = Array.isArray(r.choices) ? (r.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice || this.#finish) return [];
    const delta = (choice.delta ?? {}) as { content?: unknown };
    const out: ChatCompletionChunk[] = [];
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.#contentChunks += 1;
      out.push(this.#chunk(delta.content, null));
    }
    const reason = choice.finish_reason;
    if (typeof reason === 'string') out.push(this.#finishChunk(REASONS.has(reason) ? (reason as FinishReason) : 'stop'));
    return out;
  }

  /** The stream is over: the finish chunk if none came (`reason`), then usage if llama.cpp gave it. */
  end(reason: FinishReason): ChatCompletionChunk[] {
    const out: ChatCompletionChunk[] = [];
    if (!this.#finish) out.push(this.#finishChunk(reason));
    if (this.#usage && reason !== 'abort') out.push(usageChunk(this.#meta(), this.#fullUsage(this.#usage)));
    return out;
  }

  #finishChunk(reason: FinishReason): ChatCompletionChunk {
    this.#finish = reason;
    return this.#chunk('', reason);
  }

  #chunk(content: string, finish: FinishReason | null): ChatCompletionChunk {
    return streamChunk(this.#meta(), { role: 'assistant', content }, finish);
  }

  #meta() {
    return { id: this.#id || 'wllama', model: this.#model, created: this.#created || undefined };
  }

  /** The usage with llama.cpp's timings under `extra` and its cache hits as `cachedTokens`. */
  #fullUsage(usage: CompletionUsage): CompletionUsage {
    if (!this.#timings) return usage;
    const cached = this.#timings.cache_n;
    return { ...usage, ...(typeof cached === 'number' && cached >= 0 ? { cachedTokens: cached } : {}), extra: { timings: this.#timings } };
  }

  #takeUsage(usage: unknown, timings: unknown): void {
    if (usage && typeof usage === 'object') {
      const u = usage as Record<string, unknown>;
      const prompt = typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0;
      const completion = typeof u.completion_tokens === 'number' ? u.completion_tokens : 0;
      this.#usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    }
    if (timings && typeof timings === 'object') this.#timings = timings as Record<string, unknown>;
  }
}
