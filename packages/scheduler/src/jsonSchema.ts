import { MAX_JSON_DEPTH } from './jsonDepth.js';
import { MAX_SCHEMA_STEPS, at, isRecord, resolveRef } from './schemaRef.js';
import { show } from './rules.js';

export type { JsonSchema, JsonSchemaObject, JsonSchemaType, SchemaProblem, ValueProblem } from './jsonSchemaTypes.js';
import type { SchemaProblem } from './jsonSchemaTypes.js';

const TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$schema', '$id', '$comment']);
const SCHEMA_MAPS = ['properties', '$defs', 'definitions'] as const;
const SCHEMA_LISTS = ['prefixItems', 'anyOf', 'oneOf'] as const;
const SCHEMAS = ['additionalProperties', 'items'] as const;
const COUNTS = ['minItems', 'maxItems', 'minLength', 'maxLength'] as const;
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const KNOWN = new Set<string>([
  ...ANNOTATIONS,
  ...SCHEMA_MAPS,
  ...SCHEMA_LISTS,
  ...SCHEMAS,
  ...COUNTS,
  ...NUMBERS,
  'type',
  'required',
  'enum',
  'const',
  'pattern',
  'format',
  '$ref',
]);

/**
 * The keywords `checkJsonSchema` accepts (the `JsonSchema` subset). Which of
 * them each engine enforces during generation is in `docs/json-schema.md`.
 *
 * @example
 * JSON_SCHEMA_KEYWORDS.includes('prefixItems'); // true
 */
export const JSON_SCHEMA_KEYWORDS: readonly string[] = Object.freeze([...KNOWN]);

/**
 * Checks that `schema` is a JSON Schema in the kit's portable subset (see
 * `JsonSchema`) and returns the first problem, or `undefined` when it is fine.
 * Engines call it before any token, so a schema no engine could enforce fails
 * at once and names where it went wrong.
 *
 * @example
 * checkJsonSchema({ type: 'object', properties: { n: { type: 'nummber' } } });
 * // { path: 'properties.n.type', message: 'type must be one of string, ...; it got "nummber".' }
 */
export function checkJsonSchema(schema: unknown, path = '', root: unknown = schema): SchemaProblem | undefined {
  return checkSchema(schema, path, root, 0, new Set());
}

/** `checkJsonSchema` at `depth`; `clear` holds the schemas already known not to loop, so each is walked once. */
function checkSchema(schema: unknown, path: string, root: unknown, depth: number, clear: Set<unknown>): SchemaProblem | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return { path, message: `a schema must be an object or a boolean; it got ${show(schema)}.` };
  if (depth >= MAX_JSON_DEPTH) {
    return { path, message: `the schema nests more than ${MAX_JSON_DEPTH} levels deep; no engine constrains to one this deep.` };
  }
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key)) {
      return {
        path: at(path, key),
        message: `"${key}" is not in the JSON Schema subset every engine accepts; leave it out or express it with the supported keywords (type, properties, required, items, enum, anyOf, min/max...).`,
      };
    }
  }
  const { type } = schema;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    const bad = names.find((name) => typeof name !== 'string' || !TYPES.has(name));
    if (names.length === 0 || bad !== undefined) {
      return {
        path: at(path, 'type'),
        message: `type must be one of ${[...TYPES].join(', ')} (or a list of them); it got ${show(names.length === 0 ? type : bad)}.`,
      };
    }
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isRecord(map)) return { path: at(path, key), message: `${key} must be an object of schemas; it got ${show(map)}.` };
    for (const [name, sub] of Object.entries(map)) {
      const problem = checkSchema(sub, at(at(path, key), name), root, depth + 1, clear);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0)
      return { path: at(path, key), message: `${key} must be a non-empty list of schemas; it got ${show(list)}.` };
    for (let i = 0; i < list.length; i += 1) {
      const problem = checkSchema(list[i], at(at(path, key), i), root, depth + 1, clear);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMAS) {
    if (schema[key] === undefined) continue;
    const problem = checkSchema(schema[key], at(path, key), root, depth + 1, clear);
    if (problem) return problem;
  }
  for (const key of COUNTS) {
    const n = schema[key];
    if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0)) {
      return { path: at(path, key), message: `${key} must be a whole number of 0 or more; it got ${show(n)}.` };
    }
  }
  for (const key of NUMBERS) {
    const n = schema[key];
    if (n !== undefined && !(typeof n === 'number' && Number.isFinite(n))) {
      return { path: at(path, key), message: `${key} must be a finite number; it got ${show(n)}.` };
    }
  }
  const { required, properties } = schema;
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string')) {
      return { path: at(path, 'required'), message: `required must be a list of property names; it got ${show(required)}.` };
    }
    const missing = required.find((name) => !isRecord(properties) || !Object.hasOwn(properties, name));
    if (missing !== undefined) {
      return {
        path: at(path, 'required'),
        message: `required names "${missing}", which is not in properties; add it there or drop it from required.`,
      };
    }
  }
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) {
    return { path: at(path, 'enum'), message: `enum must be a non-empty list of values; it got ${show(schema.enum)}.` };
  }
  if (schema.pattern !== undefined) {
    try {
      new RegExp(schema.pattern as string, 'u').test('');
    } catch {
      return { path: at(path, 'pattern'), message: `pattern must be a regular expression; it got ${show(schema.pattern)}.` };
    }
  }
  if (schema.$ref !== undefined) {
    if (resolveRef(root, schema.$ref) === undefined) {
      return {
        path: at(path, '$ref'),
        message: `$ref must point inside this schema (like "#/$defs/name"); ${show(schema.$ref)} points nowhere.`,
      };
    }
    if (loops(schema, root, new Set(), clear)) {
      return {
        path: at(path, '$ref'),
        message: `$ref ${show(schema.$ref)} comes back to itself (through $ref, anyOf or oneOf) without a property or an item in between, so it describes no value; recurse through properties or items instead.`,
      };
    }
  }
  return undefined;
}

/**
 * Whether following `$ref`, `anyOf` and `oneOf` from `schema`, without going
 * down into a property or an item, reaches a schema already on the way: a
 * loop that describes nothing (`{ $ref: '#' }`) and that no grammar and no
 * validator could ever leave.
 */
function loops(schema: unknown, root: unknown, onTheWay: Set<unknown>, clear: Set<unknown>): boolean {
  if (!isRecord(schema) || clear.has(schema)) return false;
  if (onTheWay.has(schema) || onTheWay.size >= MAX_SCHEMA_STEPS) return true;
  onTheWay.add(schema);
  const target = schema.$ref === undefined ? undefined : resolveRef(root, schema.$ref);
  const options = [target, ...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])];
  const found = options.some((option) => loops(option, root, onTheWay, clear));
  onTheWay.delete(schema);
  // Known not to loop from here: never walked again, so a schema of many shared $refs costs its size, not its paths.
  if (!found) clear.add(schema);
  return found;
}

export { validateJson } from './validateJson.js';
