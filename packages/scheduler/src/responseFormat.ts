import { type JsonSchema, checkJsonSchema } from './jsonSchema.js';
import { InvalidSchemaError } from './schemaErrors.js';
import type { ChatCompletionRequest } from './types.js';

/**
 * The JSON Schema a chat request asks its output to follow, checked, or
 * `undefined` for free text. Reads OpenAI's `{ type: 'json_schema',
 * json_schema: { schema } }` and WebLLM's `{ type: 'json_object', schema }`
 * (a schema as a JSON string). Engines call it before any token and map the
 * schema onto their own constrained decoding.
 *
 * @throws InvalidSchemaError when the schema is malformed or outside the
 *   subset every engine accepts (see `JsonSchema`).
 * @example
 * const schema = requestedSchema(request);
 * if (schema !== undefined) body.grammar = toGrammar(schema);
 */
export function requestedSchema(request: Pick<ChatCompletionRequest, 'response_format'>): JsonSchema | undefined {
  const format = request.response_format;
  if (format === undefined || format === null) return undefined;
  let schema: unknown;
  if (format.type === 'json_schema') {
    schema = format.json_schema?.schema;
    if (schema === undefined)
      throw new InvalidSchemaError('', 'response_format.json_schema.schema is missing; give the JSON Schema the output must follow.');
  } else if (format.type === 'json_object' && typeof format.schema === 'string') {
    try {
      schema = JSON.parse(format.schema);
    } catch (cause) {
      throw new InvalidSchemaError('', 'response_format.schema is not valid JSON; pass the schema as JSON.stringify(schema).', { cause });
    }
  } else {
    return undefined;
  }
  const problem = checkJsonSchema(schema);
  if (problem) throw new InvalidSchemaError(problem.path, problem.message);
  return schema as JsonSchema;
}
