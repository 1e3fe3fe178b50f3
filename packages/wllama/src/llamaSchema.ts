import { type JsonSchema, type JsonSchemaObject, UnsupportedConstraintError } from '@inkling/scheduler';

/**
 * The same schema in the shape llama.cpp's `json_schema_to_grammar` can
 * take, so every schema the kit accepts either runs on wllama or is refused
 * before any token. Its converter aborts the worker on a boolean subschema
 * (`items: false` beside `prefixItems`, as zod writes a tuple; `properties:
 * { a: true }`), takes `items` over `prefixItems`, and reads a root `true` as
 * no constraint at all. So, where a value is read:
 *
 * - `true` becomes `{}` (any JSON value);
 * - a property whose schema is `false` is left out (refused when required);
 *   an `anyOf`/`oneOf` member `false` is left out;
 * - `prefixItems` ask for exactly that many items (the grammar's tuple): a
 *   rest (`items` beside it) is dropped, since a tuple of exactly the prefix
 *   already matches; `items: false` alone becomes `maxItems: 0`;
 * - what can still not be followed (a required `false` property, `false`
 *   where a value must be, more items required than the prefix names) throws.
 *
 * Every answer the grammar allows still matches the original schema.
 *
 * @throws UnsupportedConstraintError naming the place it cannot follow.
 * @example
 * llamaSchema({ type: 'array', prefixItems: [{ type: 'string' }], items: false, minItems: 1, maxItems: 1 });
 * // { type: 'array', prefixItems: [{ type: 'string' }], minItems: 1, maxItems: 1 }
 */
export function llamaSchema(schema: JsonSchema, path = ''): JsonSchemaObject {
  if (schema === true) return {};
  if (schema === false) throw refuse(path, 'it allows no value at all (false)');
  const out: Record<string, unknown> = { ...schema };
  for (const key of ['$defs', 'definitions'] as const) {
    const map = schema[key];
    if (map === undefined) continue;
    out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, llamaSchema(sub, join(path, `${key}.${name}`))]));
  }
  if (schema.properties !== undefined) {
    const properties: Record<string, JsonSchemaObject> = {};
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (sub === false) {
        if (schema.required?.includes(name)) throw refuse(join(path, `properties.${name}`), 'a required property allows no value (false)');
        continue;
      }
      properties[name] = llamaSchema(sub, join(path, `properties.${name}`));
    }
    out.properties = properties;
  }
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    out.additionalProperties = llamaSchema(schema.additionalProperties, join(path, 'additionalProperties'));
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (list === undefined) continue;
    const kept = list.filter((option) => option !== false);
    if (kept.length === 0) throw refuse(join(path, key), 'none of its options allows a value');
    out[key] = kept.map((option, i) => llamaSchema(option, join(path, `${key}[${i}]`)));
  }
  for (const [key, value] of Object.entries(arrayShape(schema, path))) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out as JsonSchemaObject;
}

/** `items` and `prefixItems` as the grammar reads them (see `llamaSchema`). */
function arrayShape(schema: JsonSchemaObject, path: string): Record<string, unknown> {
  const { prefixItems, items } = schema;
  if (prefixItems === undefined) {
    if (items === undefined) return {};
    if (items === false) {
      if ((schema.minItems ?? 0) > 0) throw refuse(join(path, 'minItems'), 'items: false allows no item, and minItems asks for some');
      return { items: undefined, maxItems: 0 };
    }
    return { items: llamaSchema(items, join(path, 'items')) };
  }
  // The grammar writes exactly the prefix: as many as maxItems allows, never fewer than minItems asks.
  const count = Math.min(prefixItems.length, schema.maxItems ?? Infinity);
  if ((schema.minItems ?? 0) > count) {
    throw refuse(
      join(path, 'minItems'),
      `llama.cpp's grammar writes exactly the ${count} items of prefixItems and cannot add more; minItems asks for ${schema.minItems}`,
    );
  }
  return {
    items: undefined,
    prefixItems: prefixItems.slice(0, count).map((item, i) => llamaSchema(item, join(path, `prefixItems[${i}]`))),
  };
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function refuse(path: string, why: string): UnsupportedConstraintError {
  return new UnsupportedConstraintError(
    `wllama cannot constrain its output to this schema at ${path || 'its root'}: ${why}. Change the schema there, or ask with useObject's mode: 'prompt' and let the answer be checked afterwards.`,
  );
}
