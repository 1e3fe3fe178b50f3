/**
 * Replays a typing session through a pool as ghost-text requests and reads
 * what the engine says it did: prompt tokens, tokens served from its cache
 * (so the tokens it had to prefill), and the time to the first token.
 */
import type { ChatCompletionRequest, CompletionUsage, EnginePool } from '@inkling/scheduler';
import type { Pause } from './typingSession.js';

export type BuildGhostParams = (input: { before: string; after: string; maxTokens: number }) => ChatCompletionRequest;

export interface PauseResult {
  readonly promptTokens: number;
  /** Tokens the engine took from its cache; `NaN` when it does not say. */
  readonly cachedTokens: number;
  readonly firstTokenMs: number;
}

/**
 * The cached-token count: the contract's `usage.cachedTokens` where the
 * engine reports it through the pool; else, as before, parsed from what
 * llama.cpp's server (OpenAI's field, or its `timings`) and wllama put in
 * the usage.
 */
export function cachedTokensOf(usage: CompletionUsage | undefined): number {
  if (typeof usage?.cachedTokens === 'number') return usage.cachedTokens;
  const details = (usage as { prompt_tokens_details?: { cached_tokens?: unknown } } | undefined)?.prompt_tokens_details;
  if (typeof details?.cached_tokens === 'number') return details.cached_tokens;
  const timings = usage?.extra?.timings as { cache_n?: unknown } | undefined;
  if (typeof timings?.cache_n === 'number') return timings.cache_n;
  return Number.NaN;
}

/** Sends one interactive request per pause, one after another, as one session. */
export async function replay(
  pool: EnginePool,
  build: BuildGhostParams,
  pauses: readonly Pause[],
  { maxTokens = 8, extra = {} }: { maxTokens?: number; extra?: Record<string, unknown> } = {},
): Promise<PauseResult[]> {
  const results: PauseResult[] = [];
  for (const { text, caret } of pauses) {
    const params = { ...build({ before: text.slice(0, caret), after: text.slice(caret), maxTokens }), ...extra };
    const result = await pool.submit({ session: 'ghost-prefix', priority: 'interactive', params });
    if (result.status !== 'done') throw new Error(`A ghost request ended ${result.status}: ${result.error?.message ?? ''}`);
    const usage = result.usage as CompletionUsage | undefined;
    results.push({
      promptTokens: usage?.prompt_tokens ?? Number.NaN,
      cachedTokens: cachedTokensOf(usage),
      firstTokenMs: (result.firstTokenAt ?? Number.NaN) - (result.startedAt ?? result.submittedAt),
    });
  }
  return results;
}
