import { MAX_JSON_DEPTH } from './jsonDepth.js';
import type { JsonSchema, JsonSchemaObject, JsonSchemaType, ValueProblem } from './jsonSchemaTypes.js';
import { MAX_SCHEMA_STEPS, at, isRecord, resolveRef } from './schemaRef.js';
import { show } from './rules.js';

function typeOf(value: unknown): JsonSchemaType | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value as JsonSchemaType;
  return 'other';
}

function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1));
}

/**
 * Checks `value` against `schema` (a schema `checkJsonSchema` accepts) and
 * returns the first place it does not match, or `undefined` when it does.
 *
 * @example
 * validateJson({ tags: ['a', 3] }, { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } });
 * // { path: 'tags[1]', value: 3, message: 'must be a string; it got 3.' }
 */
export function validateJson(value: unknown, schema: JsonSchema, path = '', root: JsonSchema = schema): ValueProblem | undefined {
  return tooDeep(value, path) ?? validateAt(value, schema, path, root, 0, 0, { left: MAX_CHECKS });
}

/**
 * The first object or array nested more than `MAX_JSON_DEPTH` levels deep,
 * found without recursion. Only containers are visited, and a path is spelled
 * out only for the one found.
 */
function tooDeep(value: unknown, path: string): ValueProblem | undefined {
  interface Node {
    readonly value: object;
    readonly depth: number;
    readonly parent: Node | undefined;
    readonly key: string | number;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Node[] = [{ value, depth: 1, parent: undefined, key: '' }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.depth > MAX_JSON_DEPTH) {
      const keys: Array<string | number> = [];
      for (let up: Node | undefined = node; up?.parent !== undefined; up = up.parent) keys.push(up.key);
      return {
        path: keys.reduceRight<string>((whole, key) => at(whole, key), path),
        value: node.value,
        message: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
      };
    }
    if (Array.isArray(node.value)) {
      for (let i = 0; i < node.value.length; i += 1) {
        const item: unknown = node.value[i];
        if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: node.depth + 1, parent: node, key: i });
      }
    } else {
      for (const key in node.value) {
        if (!Object.hasOwn(node.value, key)) continue;
        const item: unknown = (node.value as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: node.depth + 1, parent: node, key });
      }
    }
  }
  return undefined;
}

/**
 * `validateJson` at one place: `depth` counts the objects and arrays around
 * the value, `steps` the `$ref`, `anyOf` and `oneOf` taken at this value; both
 * are bounded, so no value and no schema can exhaust the stack. (Positional,
 * not an object: this runs once per value, and a spread each time tripled it.)
 */
function validateAt(
  value: unknown,
  schema: JsonSchema,
  path: string,
  root: JsonSchema,
  depth: number,
  steps: number,
  budget: Budget,
): ValueProblem | undefined {
  if (schema === true) return undefined;
  if (schema === false) return { path, value, message: 'no value is allowed here.' };
  const fail = (message: string): ValueProblem => ({ path, value, message });
  if (typeof value === 'object' && value !== null && depth >= MAX_JSON_DEPTH) {
    return fail(`nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  if (--budget.left < 0) {
    return fail(
      `checking this value takes more than ${MAX_CHECKS} steps (anyOf or oneOf of $refs branching at every level); simplify the schema.`,
    );
  }
  if (steps >= MAX_SCHEMA_STEPS) {
    return fail(`the schema takes more than ${MAX_SCHEMA_STEPS} $ref, anyOf or oneOf steps here without reaching a value: it loops.`);
  }
  if (schema.$ref !== undefined) {
    const target = resolveRef(root, schema.$ref);
    if (target === undefined) return fail(`$ref ${show(schema.$ref)} points nowhere.`);
    const problem = validateAt(value, target, path, root, depth, steps + 1, budget);
    if (problem) return problem;
  }
  const actual = typeOf(value);
  if (schema.type !== undefined) {
    const allowed: readonly string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const ok = allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
    if (!ok)
      return fail(
        `must be ${allowed.map((t) => (t === 'integer' || t === 'array' || t === 'object' ? `an ${t}` : `a ${t}`)).join(' or ')}; it got ${show(value)}.`,
      );
  }
  if (schema.const !== undefined && !sameJson(value, schema.const)) return fail(`must be ${show(schema.const)}; it got ${show(value)}.`);
  if (schema.enum !== undefined && !schema.enum.some((option) => sameJson(value, option))) {
    return fail(`must be one of ${schema.enum.map((option) => show(option)).join(', ')}; it got ${show(value)}.`);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (options === undefined) continue;
    const matches = options.filter((option) => validateAt(value, option, path, root, depth, steps + 1, budget) === undefined).length;
    if (matches === 0 || (key === 'oneOf' && matches > 1)) {
      return fail(
        matches === 0
          ? `matches none of the ${options.length} allowed shapes; it got ${show(value)}.`
          : `matches ${matches} of the oneOf shapes; it must match exactly one.`,
      );
    }
  }
  if (typeof value === 'string') return stringProblem(value, schema, fail);
  if (typeof value === 'number') return numberProblem(value, schema, fail);
  if (Array.isArray(value)) return arrayProblem(value, schema, path, root, depth + 1, budget, fail);
  if (isRecord(value)) return objectProblem(value, schema, path, root, depth + 1, budget, fail);
  return undefined;
}

type Fail = (message: string) => ValueProblem;

/** Checks left to one `validateJson` call. */
interface Budget {
  left: number;
}

/** The most checks one `validateJson` may make: a schema whose `anyOf`s of `$ref`s branch at every level fails here, not after hours. */
const MAX_CHECKS = 250_000;

function stringProblem(value: string, schema: JsonSchemaObject, fail: Fail): ValueProblem | undefined {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength)
    return fail(`must be at least ${schema.minLength} characters long; it has ${length}.`);
  if (schema.maxLength !== undefined && length > schema.maxLength)
    return fail(`must be at most ${schema.maxLength} characters long; it has ${length}.`);
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
    return fail(`must match /${schema.pattern}/; it got ${show(value)}.`);
  return undefined;
}

function numberProblem(value: number, schema: JsonSchemaObject, fail: Fail): ValueProblem | undefined {
  if (schema.minimum !== undefined && value < schema.minimum) return fail(`must be ${schema.minimum} or more; it got ${value}.`);
  if (schema.maximum !== undefined && value > schema.maximum) return fail(`must be ${schema.maximum} or less; it got ${value}.`);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
    return fail(`must be more than ${schema.exclusiveMinimum}; it got ${value}.`);
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
    return fail(`must be less than ${schema.exclusiveMaximum}; it got ${value}.`);
  return undefined;
}

function arrayProblem(
  value: readonly unknown[],
  schema: JsonSchemaObject,
  path: string,
  root: JsonSchema,
  depth: number,
  budget: Budget,
  fail: Fail,
): ValueProblem | undefined {
  if (schema.minItems !== undefined && value.length < schema.minItems)
    return fail(`must have at least ${schema.minItems} items; it has ${value.length}.`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    return fail(`must have at most ${schema.maxItems} items; it has ${value.length}.`);
  const prefix = schema.prefixItems ?? [];
  for (let i = 0; i < value.length; i += 1) {
    const itemSchema = i < prefix.length ? prefix[i] : schema.items;
    if (itemSchema === undefined) continue;
    const problem = validateAt(value[i], itemSchema as JsonSchema, at(path, i), root, depth, 0, budget);
    if (problem) return problem;
  }
  return undefined;
}

function objectProblem(
  value: Record<string, unknown>,
  schema: JsonSchemaObject,
  path: string,
  root: JsonSchema,
  depth: number,
  budget: Budget,
  fail: Fail,
): ValueProblem | undefined {
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(value, name)) return fail(`is missing the required property "${name}".`);
  }
  const properties = schema.properties ?? {};
  for (const [name, item] of Object.entries(value)) {
    const sub = Object.hasOwn(properties, name) ? properties[name] : schema.additionalProperties;
    if (sub === undefined) continue;
    if (sub === false) return { path: at(path, name), value: item, message: `"${name}" is not a property this schema allows.` };
    const problem = validateAt(item, sub, at(path, name), root, depth, 0, budget);
    if (problem) return problem;
  }
  return undefined;
}
