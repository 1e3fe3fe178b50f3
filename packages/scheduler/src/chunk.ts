import type { ChatCompletionChunk, CompletionUsage, FinishReason } from './types.js';

/** What every chunk of one stream carries besides its choice: the stream's id, its model, when it began. */
export interface ChunkMeta {
  readonly id: string;
  readonly model: string;
  /** Seconds since 1970, as OpenAI writes it. Default: now. */
  readonly created?: number;
}

/** A chunk's delta: the content it adds, and anything else the engine streams (role, tool calls). */
export type ChunkDelta = NonNullable<ChatCompletionChunk['choices'][number]>['delta'];

/**
 * A streamed chunk in the shape every engine emits (WebLLM's, which is
 * OpenAI's): one choice with `delta` and the finish reason (`null` until the
 * last content).
 *
 * @example
 * onChunk(streamChunk({ id: 'chat-1', model: 'tiny' }, { role: 'assistant', content: 'Hi' }, null));
 */
export function streamChunk(meta: ChunkMeta, delta: ChunkDelta, finish: FinishReason | null): ChatCompletionChunk {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created ?? Math.floor(Date.now() / 1000),
    model: meta.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  };
}

/**
 * The chunk that closes a stream: no choices, the engine's token counts.
 *
 * @example
 * onChunk(usageChunk(meta, { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }));
 */
export function usageChunk(meta: ChunkMeta, usage: CompletionUsage): ChatCompletionChunk {
  return { ...streamChunk(meta, { role: 'assistant', content: '' }, null), choices: [], usage };
}

/**
 * Whether a chunk comes after the generation is over: the finish chunk (a
 * `finish_reason`) or the usage chunk (no choices).
 *
 * @example
 * if (!isFinalChunk(chunk)) tokens += 1;
 */
export function isFinalChunk(chunk: ChatCompletionChunk): boolean {
  const choice = chunk.choices?.[0];
  return choice === undefined || (choice.finish_reason ?? null) !== null;
}

/**
 * The text a streamed chunk adds: `''` for role, finish and usage chunks, and
 * for anything not shaped like a chunk (a message from a worker is data, not
 * a promise).
 *
 * @example
 * pool.submit({ params, onChunk: (chunk) => (text += chunkText(chunk)) });
 */
export function chunkText(chunk: ChatCompletionChunk): string {
  const content = chunk?.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}
