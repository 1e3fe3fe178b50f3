import { type StreamingChatCompletionRequest } from '@inkling/scheduler';
import { requestedSchema } from '@inkling/scheduler/engine';

/**
 * A chat request in the shape WebLLM reads. The kit's portable
 * `response_format: { type: 'json_schema', json_schema: { schema } }` becomes
 * WebLLM's `{ type: 'json_object', schema }` (a JSON string), which its
 * xgrammar engine enforces token by token; everything else passes as it is.
 *
 * The worker calls it before WebLLM sees the request (the schema check stays
 * out of the page's bundle); a schema outside the subset every engine can
 * enforce ends the stream with `InvalidSchemaError`, before any token.
 *
 * @throws InvalidSchemaError for a schema outside the portable subset.
 * @example
 * webllmRequest({ messages, stream: true, response_format: { type: 'json_schema', json_schema: { schema } } });
 * // { messages, stream: true, response_format: { type: 'json_object', schema: '{"type":"object",...}' } }
 */
export function webllmRequest(request: StreamingChatCompletionRequest): StreamingChatCompletionRequest {
  const schema = requestedSchema(request);
  if (schema === undefined || request.response_format?.type !== 'json_schema') return request;
  return { ...request, response_format: { type: 'json_object', schema: JSON.stringify(schema) } };
}
