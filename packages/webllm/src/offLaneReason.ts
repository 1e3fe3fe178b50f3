import type { ChatCompletionRequest } from '@inkling/scheduler';

/**
 * Why a request goes to WebLLM's own one-sequence path instead of a lane,
 * judged by its shape alone (the worker also refuses a prompt the lanes'
 * tokenizer cannot read or that fills the context window); `undefined` when a
 * lane takes it. A JSON-schema or grammar job takes a lane where the worker's
 * lanes have grammars (xgrammar loaded); else `grammarOff`, the worker's
 * reason, is returned for it. The page's engine tells the pool with it (`Engine.offLane`),
 * so the pool runs one such job at a time per engine; the worker's lanes
 * refuse the same requests.
 *
 * @example
 * offLaneReason({ messages, tools: [weather] }); // 'tools'
 */
export function offLaneReason(request: ChatCompletionRequest, grammarOff?: string): string | undefined {
  // json_object, json_schema, grammar (a missing format reads "undefined": no match).
  if (grammarOff && /^(json_|grammar$)/.test((request.response_format as { type?: string } | undefined)?.type as string)) return grammarOff;
  const r = request as Record<string, unknown>;
  if (r.tools != null || r.tool_choice != null) return 'tools';
  if (r.n != null && r.n !== 1) return 'more than one choice';
  if (r.logprobs === true || r.top_logprobs != null) return 'log-probabilities';
  if ((r.extra_body as { enable_thinking?: unknown } | undefined)?.enable_thinking === false) return 'enable_thinking: false';
  return undefined;
}
