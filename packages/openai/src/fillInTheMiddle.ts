import type { ChatCompletionRequest } from '@inkling/scheduler';

/** Which fill-in-the-middle route a server has. */
export type FimEndpoint = 'completions' | 'infill';

/** The text around the caret, as `fimParams` takes it. */
export interface FimInput {
  /** The text before the caret. */
  readonly before: string;
  /** The text after the caret. */
  readonly after: string;
  /** Most tokens to write. */
  readonly maxTokens: number;
}

/** A chat job's params that also carry the text around the caret, for an engine with `fim` set. */
export type FimParams = ChatCompletionRequest & { fim: { prefix: string; suffix: string } };

/**
 * The params of a ghost-text job that a fill-in-the-middle route can run as
 * it is: with `fim: 'completions'` or `fim: 'infill'` in `openaiEngines`, the
 * engine sends the prefix and suffix to that route (a code model's own FIM
 * tokens do the rest); with `fim` off it sends the chat `messages` kept
 * beside them and leaves `fim` out. Engines of other packages get the params
 * as they are: `fim` is one more field beside ordinary chat params.
 *
 * @example
 * useGhostText({ session: 'editor', text, caret, buildParams: fimParams });
 */
export function fimParams({ before, after, maxTokens }: FimInput): FimParams {
  const afterCursor = after.trim() ? `<after_cursor>${after}</after_cursor>\n` : '';
  return {
    messages: [
      {
        role: 'system',
        content:
          'Reply with only the text to insert at the cursor: a few words that continue the text before it and fit the text after it.',
      },
      { role: 'user', content: `${afterCursor}<before_cursor>${before}</before_cursor>` },
    ],
    max_tokens: maxTokens,
    temperature: 0,
    fim: { prefix: before, suffix: after },
  };
}

/** The `fim` part of a job's params, when it has a well-formed one. */
export function fimOf(params: Record<string, unknown>): { prefix: string; suffix: string } | undefined {
  const fim = params.fim as { prefix?: unknown; suffix?: unknown } | undefined;
  return fim && typeof fim.prefix === 'string' && typeof fim.suffix === 'string' ? { prefix: fim.prefix, suffix: fim.suffix } : undefined;
}

/** Params (and the job's hints) that mean the same on the FIM routes as on chat. */
const SHARED = [
  'temperature',
  'top_p',
  'stop',
  'seed',
  'logit_bias',
  'cache_prompt',
  'id_slot',
  'cache_salt',
  'priority',
  'nvext',
  'prompt_cache_key',
  'ignore_eos',
] as const;

/**
 * The path and body of a FIM request for the job's `params` (whose `fim`
 * holds the text): OpenAI's legacy `/completions` with `prompt` and `suffix`
 * (vLLM, Ollama, DeepSeek), or llama.cpp's `/infill` with `input_prefix` and
 * `input_suffix` (served at the server's root, not under `/v1`; its own
 * stream format, read by `infillChunk`).
 *
 * @example
 * const { path, body } = fimRequest('infill', params, 'qwen2.5-coder');
 */
export function fimRequest(
  endpoint: FimEndpoint,
  params: Record<string, unknown>,
  model: string,
): { path: string; body: Record<string, unknown> } {
  const { prefix, suffix } = fimOf(params)!;
  const body: Record<string, unknown> = { model, stream: true };
  for (const key of SHARED) if (params[key] !== undefined) body[key] = params[key];
  const max = params.max_tokens ?? undefined;
  if (endpoint === 'infill') {
    Object.assign(body, { input_prefix: prefix, input_suffix: suffix });
    if (max !== undefined) body.n_predict = max;
    return { path: '/infill', body };
  }
  Object.assign(body, { prompt: prefix, suffix, stream_options: { include_usage: true } });
  if (max !== undefined) body.max_tokens = max;
  return { path: '/completions', body };
}

/**
 * One event of llama.cpp's own stream (`/infill`: `content`, `stop`,
 * `stop_type`, `timings`, token counts) in OpenAI's chunk shape, for
 * `ChunkNormalizer`. An event already in OpenAI's shape is returned as is.
 *
 * @example
 * infillChunk({ content: ' world', stop: false }); // { choices: [{ index: 0, delta: { content: ' world' }, finish_reason: null }] }
 */
export function infillChunk(raw: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(raw.choices) || raw.error !== undefined) return raw;
  const content = typeof raw.content === 'string' ? raw.content : '';
  const finish = raw.stop === true ? (raw.stop_type === 'limit' ? 'length' : 'stop') : null;
  const chunk: Record<string, unknown> = { choices: [{ index: 0, delta: { content }, finish_reason: finish }] };
  if (raw.timings !== undefined) chunk.timings = raw.timings;
  if (raw.stop === true && typeof raw.tokens_evaluated === 'number') {
    const prompt = raw.tokens_evaluated;
    const completion = typeof raw.tokens_predicted === 'number' ? raw.tokens_predicted : 0;
    chunk.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }
  return chunk;
}
