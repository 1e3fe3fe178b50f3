import type { LanguageModelV4FinishReason, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { CompletionUsage, JobResult } from '@inkling/scheduler';

/** A job's token counts in the AI SDK's shape, cached prompt tokens included. */
export function usageOf(result: JobResult): LanguageModelV4Usage {
  const usage = result.usage as CompletionUsage | undefined;
  const cached = usage?.cachedTokens;
  const input = usage?.prompt_tokens;
  return {
    inputTokens: {
      total: input,
      noCache: input !== undefined && cached !== undefined ? input - cached : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: usage?.completion_tokens, text: usage?.completion_tokens, reasoning: undefined },
    ...(usage ? { raw: JSON.parse(JSON.stringify(usage)) } : {}),
  };
}

/** How a job ended, in the AI SDK's words. */
export function finishReasonOf(result: JobResult): LanguageModelV4FinishReason {
  if (result.status === 'preempted') return { unified: 'interrupted', raw: 'preempted' };
  if (result.status === 'cancelled') return { unified: 'other', raw: result.cancelReason ?? 'cancel' };
  if (result.status === 'error') return { unified: 'error', raw: result.error?.name };
  switch (result.finishReason) {
    case 'length':
      return { unified: 'length', raw: 'length' };
    case 'tool_calls':
      return { unified: 'tool-calls', raw: 'tool_calls' };
    default:
      return { unified: 'stop', raw: result.finishReason ?? 'stop' };
  }
}
