import { describe, expect, it } from 'vitest';
import { type JsonSchema } from '../src/index.js';
import { MAX_JSON_DEPTH, checkJsonSchema, jsonDepth, validateJson } from '../src/engine.js';

/** `{"a":{"a":...1...}}`, `levels` objects deep. */
function nested(levels: number): unknown {
  return JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
}

const tree: JsonSchema = {
  type: 'object',
  properties: { a: { anyOf: [{ $ref: '#' }, { type: 'integer' }] } },
};

describe('JSON Schema checks read own properties only', () => {
  it('a required property named like an Object.prototype member must be there', () => {
    const schema: JsonSchema = { type: 'object', properties: { constructor: { type: 'string' as const } }, required: ['constructor'] };
    expect(checkJsonSchema(schema)).toBeUndefined();
    expect(validateJson({}, schema)).toMatchObject({ path: '', message: 'is missing the required property "constructor".' });
    expect(validateJson({ constructor: 'x' }, schema)).toBeUndefined();
    for (const name of ['toString', 'hasOwnProperty', '__proto__']) {
      const named: JsonSchema = { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] };
      expect({ name, problem: validateJson({}, named) !== undefined }).toEqual({ name, problem: true });
    }
  });

  it('a $ref into Object.prototype points nowhere, and allows nothing', () => {
    for (const ref of ['#/__proto__', '#/constructor', '#/properties/toString', '#/$defs/__proto__']) {
      const schema = { type: 'object', properties: { x: { $ref: ref } }, $defs: {} } as JsonSchema;
      expect({ ref, path: checkJsonSchema(schema)?.path }).toEqual({ ref, path: 'properties.x.$ref' });
      expect({ ref, message: validateJson({ x: 'anything' }, schema)?.message }).toMatchObject({
        ref,
        message: expect.stringContaining('points nowhere'),
      });
    }
  });

  it('required names a property by its own key, not one inherited', () => {
    const problem = checkJsonSchema({ type: 'object', properties: {}, required: ['constructor'] });
    expect(problem?.path).toBe('required');
  });
});

describe('JSON Schema checks are depth-bounded', () => {
  it('refuses a schema whose $ref comes back to itself without a property or item between', () => {
    expect(checkJsonSchema({ $ref: '#' })).toMatchObject({ path: '$ref' });
    expect(checkJsonSchema({ $ref: '#' })?.message).toContain('comes back to itself');
    const pair = { $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }] } }, $ref: '#/$defs/a' };
    expect(checkJsonSchema(pair)).toBeDefined();
    // Recursion through a property is a tree, and fine.
    expect(checkJsonSchema(tree)).toBeUndefined();
  });

  it('validating against an unchecked self-referring schema ends with a problem, not a stack overflow', () => {
    expect(validateJson({}, { $ref: '#' })?.message).toContain('loops');
    expect(validateJson(1, { anyOf: [{ $ref: '#' }] })).toBeDefined();
  });

  it(`a value ${MAX_JSON_DEPTH} levels deep validates; deeper ones, 1,200 levels too, are a problem at their path`, () => {
    expect(validateJson(nested(MAX_JSON_DEPTH), tree)).toBeUndefined();
    const problem = validateJson(nested(MAX_JSON_DEPTH + 1), tree);
    expect(problem?.message).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
    expect(problem?.path).toBe(Array.from({ length: MAX_JSON_DEPTH }, () => 'a').join('.'));
    expect(validateJson(nested(1200), tree)?.message).toContain('levels deep');
    // Whatever the schema: the bound is on the value.
    expect(validateJson(JSON.parse(`${'['.repeat(1200)}${']'.repeat(1200)}`), true)?.message).toContain('levels deep');
  });

  it('refuses a schema nested deeper than the bound', () => {
    let schema: JsonSchema = { type: 'string' };
    for (let i = 0; i < 1200; i += 1) schema = { type: 'array', items: schema };
    expect(checkJsonSchema(schema)?.message).toContain('levels deep');
  });

  it('jsonDepth counts brackets outside strings, in one pass', () => {
    expect(jsonDepth('{"a": [1, [2]]}')).toBe(3);
    expect(jsonDepth('"[[[\\"["')).toBe(0);
    expect(jsonDepth('{"a": "}}}", "b": [[')).toBe(3);
    expect(jsonDepth('['.repeat(100_000))).toBe(100_000);
  });

  it('a schema whose anyOf of $refs branches at every level is checked in its size, and validated within a bound', () => {
    const $defs: Record<string, JsonSchema> = { a6: { type: 'string' } };
    for (let i = 0; i < 6; i += 1) $defs[`a${i}`] = { anyOf: Array.from({ length: 30 }, () => ({ $ref: `#/$defs/a${i + 1}` })) };
    const schema: JsonSchema = { $defs, $ref: '#/$defs/a0' };
    // 30^6 paths through a few hundred schemas: the check walks each schema once.
    expect(checkJsonSchema(schema)).toBeUndefined();
    expect(validateJson(1, schema)).toBeDefined();
  });
});
