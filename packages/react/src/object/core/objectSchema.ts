import { InvalidSchemaError, type JsonSchema } from '@inkling/scheduler';
import { type ValueProblem, checkJsonSchema, validateJson } from '@inkling/scheduler/engine';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/**
 * A schema `useObject` takes: a JSON Schema (in the kit's portable subset), or
 * a validator's schema that speaks Standard Schema and Standard JSON Schema
 * (zod 4, arktype 2; valibot through `toStandardJsonSchema` from
 * `@valibot/to-json-schema`): its JSON Schema constrains the engine and its
 * own `validate` checks (and transforms) the answer.
 */
export type ObjectSchema<T = unknown> = JsonSchema | (StandardSchemaV1<unknown, T> & StandardJSONSchemaV1<unknown, T>);

/** The type of object a schema describes (`unknown` for a plain JSON Schema). */
export type InferObject<S> = S extends StandardSchemaV1<unknown, infer T> ? T : unknown;

/** A schema made ready: the JSON Schema for the engine and a check for the answer. */
export interface ResolvedSchema {
  readonly jsonSchema: JsonSchema;
  /** The value to keep (a validator may transform it), or where it fails. */
  validate(value: unknown): Promise<{ value: unknown } | { problem: ValueProblem }>;
}

function isStandard(schema: unknown): schema is StandardSchemaV1 & Partial<StandardJSONSchemaV1> {
  return (typeof schema === 'object' || typeof schema === 'function') && schema !== null && '~standard' in schema;
}

/**
 * Turns a `useObject` schema into a JSON Schema and a validator.
 *
 * @throws InvalidSchemaError when the schema is outside the portable subset,
 *   or a validator's schema cannot say itself as JSON Schema.
 * @example
 * const { jsonSchema, validate } = resolveObjectSchema(z.object({ title: z.string() }));
 */
export function resolveObjectSchema(schema: ObjectSchema): ResolvedSchema {
  if (!isStandard(schema)) {
    const problem = checkJsonSchema(schema);
    if (problem) throw new InvalidSchemaError(problem.path, problem.message);
    return {
      jsonSchema: schema,
      validate: async (value) => {
        const found = validateJson(value, schema);
        return found ? { problem: found } : { value };
      },
    };
  }
  const standard = schema['~standard'];
  const convert = (standard as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (convert === undefined) {
    throw new InvalidSchemaError(
      '',
      `this ${standard.vendor} schema cannot describe itself as JSON Schema (Standard JSON Schema); pass a JSON Schema, or wrap it (valibot: toStandardJsonSchema from @valibot/to-json-schema).`,
    );
  }
  let jsonSchema: unknown;
  try {
    jsonSchema = convert.input({ target: 'draft-2020-12' });
  } catch (cause) {
    throw new InvalidSchemaError(
      '',
      `${standard.vendor} could not turn this schema into JSON Schema: ${(cause as Error).message ?? String(cause)}`,
      { cause },
    );
  }
  const problem = checkJsonSchema(jsonSchema);
  if (problem) throw new InvalidSchemaError(problem.path, problem.message);
  return {
    jsonSchema: jsonSchema as JsonSchema,
    validate: async (value) => {
      const result = await standard.validate(value);
      if (result.issues === undefined) return { value: result.value };
      const issue = result.issues[0] as StandardSchemaV1.Issue;
      const keys = (issue.path ?? []).map((part: PropertyKey | StandardSchemaV1.PathSegment) =>
        typeof part === 'object' ? part.key : part,
      );
      return { problem: { path: pathText(keys), value: valueAt(value, keys), message: issue.message } };
    },
  };
}

function pathText(keys: readonly PropertyKey[]): string {
  return keys.reduce<string>((path, key) => {
    if (typeof key === 'number') return `${path}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? (path ? `${path}.${name}` : name) : `${path}[${JSON.stringify(name)}]`;
  }, '');
}

function valueAt(value: unknown, keys: readonly PropertyKey[]): unknown {
  return keys.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}
