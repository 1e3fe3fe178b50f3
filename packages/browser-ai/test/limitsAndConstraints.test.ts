import { EnginePool, UnsupportedConstraintError } from '@inkling/scheduler';
import { validateJson } from '@inkling/scheduler/engine';
import { describe, expect, it } from 'vitest';
import { InputTooLongError, promptEngines } from '../src/index.js';
import { type FakeBuiltInAIOptions, createFakeBuiltInAI } from '../src/testing/index.js';

const user = (content: string) => ({ role: 'user' as const, content });
const jsonSchema = (schema: unknown) => ({ type: 'json_schema', json_schema: { name: 'out', schema } }) as never;

async function poolOn(options: FakeBuiltInAIOptions) {
  const fake = createFakeBuiltInAI(options);
  const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
  await pool.load();
  return { fake, pool };
}

describe("the Prompt API's limits under each Chrome's names", () => {
  it.each(['context', 'input'] as const)(
    "'%s' names: an over-long prompt is an InputTooLongError before the browser is asked, with the figures",
    async (limits) => {
      const { fake, pool } = await poolOn({ limits, contextWindow: 100 });
      const session = Object.getPrototypeOf(await (fake.globals.LanguageModel!.create() as Promise<object>)) as object;
      // The fake has exactly this Chrome's names: the newest absent where an older Chrome is played.
      expect('contextWindow' in session).toBe(limits === 'context');
      expect('inputQuota' in session).toBe(limits === 'input');
      const { error } = await pool.submit({ params: { messages: [user('x'.repeat(1000))] } });
      expect(error).toBeInstanceOf(InputTooLongError);
      expect(error).toMatchObject({ needed: 251, available: 100 });
      expect(error?.message).toMatch(/needs 251 tokens but Chrome's built-in model has 100 of its 100 left/);
      expect(fake.stats.prompts).toHaveLength(0);
      expect((await pool.submit({ params: { messages: [user('short')] } })).status).toBe('done');
    },
  );

  it.each(['tokens', 'none'] as const)(
    "'%s' names (nothing to measure with): no pre-check, and the browser's QuotaExceededError becomes an InputTooLongError",
    async (limits) => {
      const { fake, pool } = await poolOn({ limits, contextWindow: 100 });
      const { error } = await pool.submit({ params: { messages: [user('x'.repeat(1000))] } });
      expect(error).toBeInstanceOf(InputTooLongError);
      expect(error).toMatchObject({ needed: 251, available: 100 });
      expect(error?.message).toMatch(/refused the prompt as too long \(The input is too large\.\)/);
      expect((error as Error).cause).toMatchObject({ name: 'QuotaExceededError' });
      expect(fake.stats.prompts).toHaveLength(0);
      expect((await pool.submit({ params: { messages: [user('short')] } })).status).toBe('done');
    },
  );

  it.each([
    ['context', true],
    ['input', true],
    ['tokens', true],
    ['none', false],
  ] as const)("'%s' names: usage counts the kept context where the browser tells it", async (limits, told) => {
    const { pool } = await poolOn({ limits });
    const system = { role: 'system' as const, content: 'You are brief.' };
    const result = await pool.submit({ params: { messages: [system, user('hello')] } });
    expect(result.status).toBe('done');
    const cached = (result.usage as { cachedTokens?: number }).cachedTokens ?? 0;
    expect(cached > 0).toBe(told);
  });
});

describe('structured output on the fake of the Prompt API', () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 3 },
      items: { type: 'array', minItems: 2, items: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] } },
      priority: { enum: ['low', 'high'] },
      count: { type: 'integer', minimum: 1 },
    },
    required: ['title', 'items', 'priority', 'count'],
    additionalProperties: false,
  };

  it("the answer is valid against the job's schema, because the engine passes it as responseConstraint (a free reply would be prose)", async () => {
    const prose = 'Sure! Buy milk and call Maria.';
    const { fake, pool } = await poolOn({ reply: () => prose });
    expect((await pool.submit({ params: { messages: [user('free text')] } })).text).toBe(prose);
    const result = await pool.submit({ params: { messages: [user('List the tasks.')], response_format: jsonSchema(schema) } });
    expect(result.status).toBe('done');
    expect(fake.stats.prompts.at(-1)?.responseConstraint).toEqual(schema);
    const value = JSON.parse(result.text) as unknown;
    expect(validateJson(value, schema as never)).toBeUndefined();
    expect(value).toMatchObject({ title: 'Sure', priority: 'low', count: 1 });
  });

  it('a scripted reply that satisfies the schema is the answer as it is', async () => {
    const answer = JSON.stringify({ title: 'Groceries', items: [{ task: 'milk' }, { task: 'bread' }], priority: 'high', count: 2 });
    const { pool } = await poolOn({ reply: () => answer });
    expect((await pool.submit({ params: { messages: [user('json')], response_format: jsonSchema(schema) } })).text).toBe(answer);
  });

  it('a schema the browser does not support (its NotSupportedError) is an UnsupportedConstraintError for that job only', async () => {
    const { fake, pool } = await poolOn({});
    const before = fake.stats.prompts.length;
    const wrong = { type: 'object', properties: { n: { type: 'nummber' } } };
    const { error } = await pool.submit({ params: { messages: [user('json')], response_format: jsonSchema(wrong) } });
    expect(error).toBeInstanceOf(UnsupportedConstraintError);
    expect(error?.message).toMatch(/cannot constrain its answer to this schema \(.*properties\.n\.type.*\): simplify the schema/);
    expect((error as Error).cause).toMatchObject({ name: 'NotSupportedError' });
    expect(fake.stats.prompts).toHaveLength(before);
    expect((await pool.submit({ params: { messages: [user('next')] } })).status).toBe('done');
  });
});
