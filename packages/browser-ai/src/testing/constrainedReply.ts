import { type JsonSchema, type JsonSchemaObject } from '@inkling/scheduler';
import { checkJsonSchema, validateJson } from '@inkling/scheduler/engine';

/**
 * What the fake's model answers under a `responseConstraint`, as Chrome's
 * constrained decoding would: the scripted reply when it already satisfies
 * the constraint, else (a JSON Schema) the smallest value the schema allows,
 * with the reply's words in its strings. A schema the fake cannot read
 * throws `NotSupportedError`, as the Prompt API does for one it does not
 * support; a regular expression the reply does not match, or a schema whose
 * strings need a `pattern` or `format`, is a plain `Error` that says the fake
 * cannot write it (script a reply that satisfies it).
 */
export function constrainedReply(constraint: unknown, reply: string): string {
  if (constraint instanceof RegExp) {
    if (constraint.test(reply)) return reply;
    throw new Error(`The fake cannot write text for the regular expression ${String(constraint)}: give it a reply that matches.`);
  }
  const problem = checkJsonSchema(constraint);
  if (problem) {
    throw new DOMException(
      `The response constraint is not a supported JSON Schema (at "${problem.path}": ${problem.message})`,
      'NotSupportedError',
    );
  }
  const schema = constraint as JsonSchema;
  if (fits(reply, schema)) return reply;
  const words = reply.match(/[\p{L}\p{N}]+/gu) ?? [];
  const value = instanceOf(schema, schema, { words, next: 0 }, 0);
  const wrong = validateJson(value, schema);
  if (wrong)
    throw new Error(
      `The fake cannot write a value for this schema (at "${wrong.path}": ${wrong.message}): give it a reply that satisfies it.`,
    );
  // Spaced out, so it streams in several pieces as a model's answer does.
  return JSON.stringify(value, null, 1);
}

function fits(reply: string, schema: JsonSchema): boolean {
  try {
    return validateJson(JSON.parse(reply), schema) === undefined;
  } catch {
    return false;
  }
}

interface Words {
  readonly words: readonly string[];
  next: number;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (typeof schema === 'boolean' || schema.$ref === undefined) return schema;
  const path = schema.$ref.replace(/^#\/?/, '').split('/').filter(Boolean);
  let found: unknown = root;
  for (const key of path) found = (found as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  return (found ?? true) as JsonSchema;
}

/** The smallest value `schema` allows (the first choice of every `anyOf`, `enum` and type). */
function instanceOf(given: JsonSchema, root: JsonSchema, words: Words, depth: number): unknown {
  const schema = resolve(given, root);
  if (typeof schema === 'boolean' || depth > 16) return null;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (choice !== undefined)
    return instanceOf({ ...schema, anyOf: undefined, oneOf: undefined, ...asObject(resolve(choice, root)) }, root, words, depth + 1);
  const type = typeOf(schema);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) out[key] = instanceOf(property, root, words, depth + 1);
      return out;
    }
    case 'array': {
      const prefix = (schema.prefixItems ?? []).map((item) => instanceOf(item, root, words, depth + 1));
      const count = Math.max(schema.minItems ?? 0, prefix.length, Math.min(1, schema.maxItems ?? 1));
      const rest = Array.from({ length: count - prefix.length }, () => instanceOf(schema.items ?? true, root, words, depth + 1));
      return [...prefix, ...rest];
    }
    case 'string': {
      let text = words.words[words.next++ % Math.max(1, words.words.length)] ?? 'text';
      while (text.length < (schema.minLength ?? 0)) text += ` ${text}`;
      return text.slice(0, schema.maxLength ?? text.length);
    }
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? (schema.exclusiveMinimum === undefined ? 0 : schema.exclusiveMinimum + (type === 'integer' ? 1 : 0.5));
      const high = schema.maximum ?? schema.exclusiveMaximum;
      const value = type === 'integer' ? Math.ceil(low) : low;
      return high !== undefined && value >= high ? (schema.maximum ?? (low + high) / 2) : value;
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function asObject(schema: JsonSchema): JsonSchemaObject {
  return typeof schema === 'boolean' ? {} : schema;
}

function typeOf(schema: JsonSchemaObject): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type) return type as string;
  if (schema.properties || schema.required) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return undefined;
}
