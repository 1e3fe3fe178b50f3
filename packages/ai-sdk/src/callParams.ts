import type { LanguageModelV4CallOptions, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatCompletionRequest, JsonSchema } from '@inkling/scheduler';
import { promptToMessages } from './promptToMessages.js';

/**
 * The AI SDK's call options as an Inkling chat request, with a warning for
 * each setting the engines do not take.
 */
export function callParams(options: LanguageModelV4CallOptions): { params: ChatCompletionRequest; warnings: SharedV4Warning[] } {
  const warnings: SharedV4Warning[] = [];
  const params: ChatCompletionRequest = { messages: promptToMessages(options.prompt, warnings) };
  if (options.maxOutputTokens !== undefined) params.max_tokens = options.maxOutputTokens;
  if (options.temperature !== undefined) params.temperature = options.temperature;
  if (options.topP !== undefined) params.top_p = options.topP;
  if (options.seed !== undefined) params.seed = options.seed;
  if (options.stopSequences?.length) params.stop = options.stopSequences;
  if (options.presencePenalty !== undefined) params.presence_penalty = options.presencePenalty;
  if (options.frequencyPenalty !== undefined) params.frequency_penalty = options.frequencyPenalty;
  if (options.topK !== undefined)
    warnings.push({ type: 'unsupported', feature: 'topK', details: 'Inkling engines take OpenAI-shaped requests, which have no top_k.' });
  // The AI SDK sends its own user-agent on every call; only the caller's headers are ignored.
  const headers = Object.keys(options.headers ?? {}).filter((name) => name.toLowerCase() !== 'user-agent');
  if (headers.length > 0) {
    warnings.push({
      type: 'unsupported',
      feature: 'headers',
      details: 'Engines run in the page; set server headers on the engine (openaiEngines).',
    });
  }
  if (options.reasoning !== undefined && options.reasoning !== 'provider-default')
    warnings.push({ type: 'unsupported', feature: 'reasoning' });
  const format = options.responseFormat;
  if (format?.type === 'json') {
    params.response_format =
      format.schema === undefined
        ? { type: 'json_object' }
        : {
            type: 'json_schema',
            json_schema: {
              name: format.name ?? 'object',
              ...(format.description ? { description: format.description } : {}),
              schema: format.schema as JsonSchema,
              strict: true,
            },
          };
  }
  const functions = (options.tools ?? []).filter((tool) => tool.type === 'function');
  for (const tool of options.tools ?? []) {
    if (tool.type !== 'function') warnings.push({ type: 'unsupported', feature: `provider tool ${tool.id}` });
  }
  if (functions.length > 0) {
    params.tools = functions.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema },
    }));
    const choice = options.toolChoice;
    if (choice !== undefined)
      params.tool_choice = choice.type === 'tool' ? { type: 'function', function: { name: choice.toolName } } : choice.type;
  }
  return { params, warnings };
}
