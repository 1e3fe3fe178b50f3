/**
 * A JSON Schema, in the subset every engine of the kit accepts (llama.cpp's
 * and WebLLM's grammars, vLLM's and OpenAI's `json_schema`, the Prompt API's
 * `responseConstraint`): `type` (one or a list), `properties`, `required`,
 * `additionalProperties`, `items`, `prefixItems`, `minItems`, `maxItems`,
 * `enum`, `const`, `anyOf`, `oneOf`, `minLength`, `maxLength`, `pattern`,
 * `format`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
 * local `$ref`s into `$defs` or `definitions`, and the annotations (`title`,
 * `description`, `default`, `examples`, `$schema`, `$id`, `$comment`).
 *
 * Accepted is not always enforced while the model writes: llama.cpp's
 * grammar, for one, bounds integers but not fractional numbers. Which keyword
 * each engine enforces during generation, and which only `validateJson` (and
 * so `useObject` and tool calls) checks after, is in the kit's
 * `docs/json-schema.md`.
 */
export type JsonSchema = boolean | JsonSchemaObject;

/** The object form of a `JsonSchema`. */
export interface JsonSchemaObject {
  type?: JsonSchemaType | readonly JsonSchemaType[];
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: readonly JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: readonly unknown[];
  const?: unknown;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Readonly<Record<string, JsonSchema>>;
  definitions?: Readonly<Record<string, JsonSchema>>;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: readonly unknown[];
  $schema?: string;
  $id?: string;
  $comment?: string;
}

/** One of JSON Schema's seven type names. */
export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/** Where a schema or a value went wrong: `path` is `''` for the root, else like `items[2].name`. */
export interface SchemaProblem {
  readonly path: string;
  readonly message: string;
}

/** A value that does not match its schema: where, what it was, and why. */
export interface ValueProblem extends SchemaProblem {
  readonly value: unknown;
}
