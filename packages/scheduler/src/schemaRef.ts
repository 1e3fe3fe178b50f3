import type { JsonSchema } from './jsonSchemaTypes.js';

/** The most `$ref`, `anyOf` and `oneOf` steps a schema may take at one place of a value before it counts as a loop. */
export const MAX_SCHEMA_STEPS = 16;

/** The path of `key` below `path`, as problems name places: `items[2].name`. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** Whether `value` is a plain object (not `null`, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema a local `$ref` points at, through the schema's own properties only (never `Object.prototype`'s). */
export function resolveRef(root: unknown, ref: unknown): JsonSchema | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'boolean' || isRecord(node) ? (node as JsonSchema) : undefined;
}
