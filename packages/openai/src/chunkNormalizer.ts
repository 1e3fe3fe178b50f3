import type { ChatCompletionChunk, CompletionUsage, FinishReason, ToolCall } from '@inkling/scheduler';
import { type ChunkDelta, type ChunkMeta, streamChunk, usageChunk } from '@inkling/scheduler/engine';

interface ToolCallDraft {
  id?: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * Turns what a server streams into the chunks a WebLLM engine emits, so that
 * `onChunk` consumers see one format whichever engine ran the job:
 *
 * 1. content chunks, one per server delta, `finish_reason: null`;
 * 2. one finish chunk, empty content, with `finish_reason` and, for tool
 *    calls, the calls whole (servers stream them in fragments; WebLLM emits
 *    them complete in this chunk);
 * 3. one usage chunk, `choices: []`, with the server's token counts and
 *    `cachedTokens` from the server's own field (see `cachedTokensOf`).
 *
 * Servers differ on each: llama.cpp puts finish and usage on one chunk with
 * the last content, vLLM sends usage apart, some repeat `finish_reason`, some
 * give none before `[DONE]`, some name reasons WebLLM does not have. Content
 * after the finish is dropped; the last usage seen wins.
 *
 * @example
 * const normalizer = new ChunkNormalizer('qwen2.5-7b');
 * for (const raw of serverChunks) for (const chunk of normalizer.push(raw)) onChunk(chunk);
 * for (const chunk of normalizer.end()) onChunk(chunk);
 */
export class ChunkNormalizer {
  #id = '';
  #created = 0;
  #model: string;
  #finish: FinishReason | undefined;
  #usage: CompletionUsage | undefined;
  #extra: Record<string, unknown> | undefined;
  readonly #tools = new Map<number, ToolCallDraft>();
  #chars = 0;

  constructor(model: string) {
    this.#model = model;
  }

  /** The generation is over (a finish reason was seen). */
  get finished(): boolean {
    return this.#finish !== undefined;
  }

  /** Characters of content received so far. */
  get chars(): number {
    return this.#chars;
  }

  /** Folds in one parsed server chunk; returns the WebLLM-shaped chunks it makes. */
  push(raw: Record<string, unknown>): ChatCompletionChunk[] {
    if (typeof raw.id === 'string' && !this.#id) this.#id = raw.id;
    if (typeof raw.created === 'number' && !this.#created) this.#created = raw.created;
    if (typeof raw.model === 'string' && raw.model) this.#model = raw.model;
    this.#takeUsage(raw.usage, raw.timings);
    const out: ChatCompletionChunk[] = [];
    const choices = Array.isArray(raw.choices) ? (raw.choices as Array<Record<string, unknown>>) : [];
    // One answer per job: a server asked for `n` > 1 is not something the pool does.
    const choice = choices.find((c) => (c.index ?? 0) === 0);
    if (!choice || this.finished) return out;
    const delta = (choice.delta ?? choice.message ?? {}) as Record<string, unknown>;
    // `/completions` (fill-in-the-middle) streams `text` where chat streams `delta.content`.
    const content = typeof delta.content === 'string' ? delta.content : typeof choice.text === 'string' ? choice.text : '';
    if (Array.isArray(delta.tool_calls)) this.#takeToolCalls(delta.tool_calls as Array<Record<string, unknown>>);
    if (content) {
      this.#chars += content.length;
      out.push(this.#chunk({ role: 'assistant', content }, null));
    }
    const finish = finishReasonOf(choice.finish_reason);
    if (finish) out.push(this.#finishChunk(finish));
    return out;
  }

  /**
   * The stream is over: the finish chunk if none came yet (`reason`, default
   * `'stop'`), then the usage chunk if the server reported usage.
   */
  end(reason: FinishReason = 'stop'): ChatCompletionChunk[] {
    const out: ChatCompletionChunk[] = [];
    if (!this.finished) out.push(this.#finishChunk(reason));
    if (this.#usage) {
      const usage = this.#extra ? { ...this.#usage, extra: { ...this.#usage.extra, ...this.#extra } } : { ...this.#usage };
      const cached = usage.cachedTokens ?? cachedTokensOf(usage, this.#extra?.timings);
      if (cached !== undefined) usage.cachedTokens = cached;
      out.push(usageChunk(this.#meta(), usage));
    }
    return out;
  }

  #finishChunk(reason: FinishReason): ChatCompletionChunk {
    this.#finish = reason;
    const delta: ChunkDelta = { role: 'assistant', content: '' };
    if (this.#tools.size > 0) {
      delta.tool_calls = [...this.#tools.entries()].toSorted(([a], [b]) => a - b).map(([, call]) => call as ToolCall);
    }
    return this.#chunk(delta, reason);
  }

  #takeUsage(usage: unknown, timings: unknown): void {
    if (usage && typeof usage === 'object') {
      const u = usage as Record<string, unknown>;
      const prompt = numberOr(u.prompt_tokens, 0);
      const completion = numberOr(u.completion_tokens, 0);
      this.#usage = {
        ...(u as object),
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: numberOr(u.total_tokens, prompt + completion),
      };
    }
    // llama.cpp reports its speeds apart from usage; WebLLM keeps them under `usage.extra`.
    if (timings && typeof timings === 'object') this.#extra = { timings };
  }

  #takeToolCalls(fragments: Array<Record<string, unknown>>): void {
    for (const [position, fragment] of fragments.entries()) {
      const index = typeof fragment.index === 'number' ? fragment.index : position;
      const draft = this.#tools.get(index) ?? { type: 'function' as const, function: { name: '', arguments: '' } };
      if (typeof fragment.id === 'string') draft.id = fragment.id;
      const fn = (fragment.function ?? {}) as Record<string, unknown>;
      if (typeof fn.name === 'string') draft.function.name += fn.name;
      if (typeof fn.arguments === 'string') draft.function.arguments += fn.arguments;
      this.#tools.set(index, draft);
    }
  }

  #chunk(delta: ChunkDelta, finish: FinishReason | null): ChatCompletionChunk {
    return streamChunk(this.#meta(), delta, finish);
  }

  /** The stream's id, model and start as the server gave them (`created` absent: now). */
  #meta(): ChunkMeta {
    return { id: this.#id || 'chatcmpl-inkling', model: this.#model, ...(this.#created ? { created: this.#created } : {}) };
  }
}

/**
 * A server's finish reason in WebLLM's words. Reasons WebLLM has no word for
 * (`content_filter`, `eos`, `end_turn`) read as `'stop'`: the answer ended.
 *
 * @example
 * finishReasonOf('function_call'); // 'tool_calls'
 */
export function finishReasonOf(value: unknown): FinishReason | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (value === 'length' || value === 'abort') return value;
  if (value === 'tool_calls' || value === 'function_call') return 'tool_calls';
  return 'stop';
}

/**
 * The prompt tokens a server's cache already held, from its own field:
 * `usage.prompt_tokens_details.cached_tokens` (OpenAI, vLLM, SGLang, and
 * llama.cpp's OpenAI routes), else llama.cpp's `timings.cache_n`.
 *
 * @example
 * cachedTokensOf({ prompt_tokens_details: { cached_tokens: 96 } }, undefined); // 96
 */
export function cachedTokensOf(usage: object | undefined, timings: unknown): number | undefined {
  const details = (usage as { prompt_tokens_details?: { cached_tokens?: unknown } } | undefined)?.prompt_tokens_details;
  const fromDetails = details?.cached_tokens;
  if (typeof fromDetails === 'number' && Number.isFinite(fromDetails) && fromDetails >= 0) return fromDetails;
  const fromTimings = (timings as { cache_n?: unknown } | undefined)?.cache_n;
  if (typeof fromTimings === 'number' && Number.isFinite(fromTimings) && fromTimings >= 0) return fromTimings;
  return undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
