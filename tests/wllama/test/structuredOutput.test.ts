import { type ChatCompletionChunk, EnginePool, InvalidSchemaError, type JsonSchema, UnsupportedConstraintError } from '@inkling/scheduler';
import { validateJson } from '@inkling/scheduler/engine';
import { parsePartialJson } from '@inkling/react/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testEngines } from './engines.js';

// The weights are random: only the constraint can make these answers valid.
// Letters and spaces only: a random model free to pick any byte writes broken UTF-8, and wllama 3.13's worker dies
// on it ("Invalid typed array length"). Non-ASCII text is spelled out by the places schema's enum and const.
const short = { type: 'string', pattern: '^[a-z ]{1,12}$' } as const;
const SCHEMAS: Record<string, JsonSchema> = {
  nested: {
    type: 'object',
    properties: { title: short, owner: { type: 'object', properties: { name: short, team: short }, required: ['name'] } },
    required: ['title', 'owner'],
    additionalProperties: false,
  },
  list: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 3,
        items: {
          type: 'object',
          properties: { task: short, hours: { type: 'integer', minimum: 1, maximum: 8 } },
          required: ['task', 'hours'],
        },
      },
    },
    required: ['items'],
  },
  enums: {
    type: 'object',
    properties: { label: { enum: ['bug', 'feature', 'question'] }, urgent: { type: 'boolean' }, score: { type: 'number' } },
    required: ['label', 'urgent', 'score'],
  },
  optional: {
    type: 'object',
    properties: { name: short, nickname: short, age: { type: 'integer', minimum: 0, maximum: 120 } },
    required: ['name'],
  },
  titles: { type: 'array', minItems: 3, maxItems: 3, items: short },
  // Non-ASCII text the grammar must spell out byte by byte (the test model's vocabulary has byte tokens).
  places: {
    type: 'object',
    properties: {
      city: { enum: ['Zürich', 'Kraków', 'São Paulo', '東京'] },
      note: { const: 'café crème' },
      tags: { type: 'array', maxItems: 2, items: short },
    },
    required: ['city', 'note'],
  },
};

/** Whether `partial` could still become `final`. */
function grows(partial: unknown, final: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (Array.isArray(final))
    return Array.isArray(partial) && partial.length <= final.length && partial.every((item, i) => grows(item, final[i]));
  if (typeof final === 'object' && final !== null) {
    return (
      typeof partial === 'object' &&
      partial !== null &&
      Object.entries(partial).every(([key, value]) => grows(value, (final as Record<string, unknown>)[key]))
    );
  }
  return Object.is(partial, final);
}

/** `'ran'` when the answer matches its schema (or, cut by max_tokens, is still on its way to JSON); else why not. */
function judge(text: string, cut: boolean, schema: JsonSchema): string {
  if (cut) {
    try {
      parsePartialJson(text);
      return 'ran';
    } catch (error) {
      return `not JSON: ${(error as Error).message} ${text}`;
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `not JSON: ${text}`;
  }
  const problem = validateJson(value, schema);
  return problem ? `invalid at ${problem.path}: ${problem.message}` : 'ran';
}

describe('schema-constrained jobs on wllama (the generated random-weight model)', () => {
  let pool: EnginePool;
  beforeAll(async () => {
    pool = new EnginePool({ createEngine: testEngines('chat'), size: 1 });
    await pool.load();
  });
  afterAll(() => pool.unload());

  it('returns objects that validate, 50 of 50, each streamed through states that only grow', { timeout: 120_000 }, async () => {
    const names = Object.keys(SCHEMAS);
    const failures: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const name = names[i % names.length] as string;
      const schema = SCHEMAS[name] as JsonSchema;
      let text = '';
      const partials: unknown[] = [];
      const result = await pool.submit({
        params: {
          messages: [{ role: 'user', content: `Request ${i}: answer as JSON.` }],
          max_tokens: 300,
          seed: i,
          response_format: { type: 'json_schema', json_schema: { name, schema, strict: true } },
        },
        onChunk: (chunk: ChatCompletionChunk) => {
          text += chunk.choices[0]?.delta.content ?? '';
          partials.push(parsePartialJson(text).value);
        },
      });
      expect(result.status, `${name} #${i}: ${result.error?.message}`).toBe('done');
      let value: unknown;
      try {
        value = JSON.parse(result.text);
      } catch {
        failures.push(`${name} #${i}: not JSON: ${result.text}`);
        continue;
      }
      const problem = validateJson(value, schema);
      if (problem) failures.push(`${name} #${i}: ${problem.path} ${problem.message}`);
      for (const partial of partials)
        if (!grows(partial, value)) failures.push(`${name} #${i}: partial ${JSON.stringify(partial)} does not grow into ${result.text}`);
    }
    expect(failures).toEqual([]);
  });

  it(
    'runs every accepted schema llama.cpp once crashed on (a zod tuple, boolean subschemas), or refuses it typed before any token',
    { timeout: 120_000 },
    async () => {
      const digit = { type: 'integer', minimum: 0, maximum: 9 } as const;
      const accepted: Record<string, JsonSchema> = {
        zodTuple: z.toJSONSchema(z.object({ pair: z.tuple([z.string().regex(/^[a-z ]{1,12}$/), z.int().min(0).max(9)]) })) as JsonSchema,
        tupleWithRest: { type: 'object', properties: { p: { type: 'array', prefixItems: [short], items: digit } }, required: ['p'] },
        itemsTrue: { type: 'array', items: true, maxItems: 2 },
        itemsFalse: { type: 'array', items: false },
        propertyTrue: { type: 'object', properties: { a: true, b: short }, required: ['a', 'b'] },
        propertyFalse: { type: 'object', properties: { a: false, b: short }, required: ['b'], additionalProperties: false },
        rootTrue: true,
        tupleNeedsMore: { type: 'array', prefixItems: [short], items: short, minItems: 2 },
      };
      const outcomes: Record<string, string> = {};
      for (const [name, schema] of Object.entries(accepted)) {
        let tokens = 0;
        const result = await pool.submit({
          params: {
            messages: [{ role: 'user', content: `Answer ${name} as JSON.` }],
            max_tokens: 120,
            seed: 5,
            response_format: { type: 'json_schema', json_schema: { name, schema, strict: true } },
          },
          onChunk: (chunk: ChatCompletionChunk) => {
            if (chunk.choices[0]?.delta.content) tokens += 1;
          },
        });
        if (result.status === 'done') {
          outcomes[name] = judge(result.text, result.finishReason === 'length', schema);
        } else {
          const refusedFirst = result.error instanceof UnsupportedConstraintError && tokens === 0;
          outcomes[name] = refusedFirst ? 'refused' : `${result.status}: ${result.error?.name} ${result.error?.message}`;
        }
      }
      expect(outcomes).toEqual({
        zodTuple: 'ran',
        tupleWithRest: 'ran',
        itemsTrue: 'ran',
        itemsFalse: 'ran',
        propertyTrue: 'ran',
        propertyFalse: 'ran',
        rootTrue: 'ran',
        tupleNeedsMore: 'refused',
      });
    },
  );

  it('refuses a schema outside the portable subset by its path, before any token', async () => {
    const result = await pool.submit({
      params: {
        messages: [{ role: 'user', content: 'x' }],
        response_format: {
          type: 'json_schema',
          json_schema: { schema: { type: 'object', patternProperties: { '^a': { type: 'string' } } } as JsonSchema },
        },
      },
    });
    expect(result.error).toBeInstanceOf(InvalidSchemaError);
    expect((result.error as InvalidSchemaError).path).toBe('patternProperties');
    expect(result.text).toBe('');
  });
});
