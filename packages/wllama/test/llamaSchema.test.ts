import { type JsonSchema, UnsupportedConstraintError } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { llamaSchema } from '../src/llamaSchema.js';

describe('llamaSchema: the schema in the shape llama.cpp reads', () => {
  it("zod's tuple (items: false beside prefixItems) becomes the grammar's exact tuple", () => {
    // What zod 4's toJSONSchema writes for z.tuple([z.string(), z.number()]).
    const schema: JsonSchema = {
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
      minItems: 2,
      maxItems: 2,
    };
    expect(llamaSchema(schema)).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      minItems: 2,
      maxItems: 2,
    });
  });

  it('a rest beside prefixItems is dropped; maxItems cuts the prefix; more than the prefix is refused', () => {
    expect(llamaSchema({ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } })).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }],
    });
    expect(llamaSchema({ prefixItems: [{ type: 'string' }, { type: 'null' }], maxItems: 1 })).toEqual({
      prefixItems: [{ type: 'string' }],
      maxItems: 1,
    });
    expect(() => llamaSchema({ prefixItems: [{ type: 'string' }], items: true, minItems: 2 })).toThrow(UnsupportedConstraintError);
  });

  it('boolean subschemas: true is any value, false properties and options are left out, false items mean none', () => {
    expect(llamaSchema(true)).toEqual({});
    expect(
      llamaSchema({
        type: 'object',
        properties: { a: true, b: false, c: { type: 'array', items: false } },
        additionalProperties: false,
        anyOf: [false, { required: ['a'] }],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: {}, c: { type: 'array', maxItems: 0 } },
      additionalProperties: false,
      anyOf: [{ required: ['a'] }],
    });
  });

  it('refuses, typed and by place, what the grammar cannot follow', () => {
    const cases: Array<[JsonSchema, string]> = [
      [false, 'its root'],
      [{ type: 'object', properties: { a: false }, required: ['a'] }, 'properties.a'],
      [{ anyOf: [false] }, 'anyOf'],
      [{ type: 'array', items: false, minItems: 1 }, 'minItems'],
      [{ $defs: { never: false } }, '$defs.never'],
    ];
    for (const [schema, place] of cases) {
      let error: unknown;
      try {
        llamaSchema(schema);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(UnsupportedConstraintError);
      expect((error as Error).message).toContain(`at ${place}:`);
    }
  });
});
