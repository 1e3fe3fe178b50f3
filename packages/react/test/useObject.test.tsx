import { InvalidSchemaError, type JsonSchema, ObjectValidationError, UnsupportedConstraintError } from '@inkling/scheduler';
import { validateJson } from '@inkling/scheduler/engine';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { act } from '@testing-library/react';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type ObjectSchema, useObject } from '../src/index.js';
import { describeEachReactMode, engineCalls, fakePool, renderHookWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const actions: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', maxLength: 30 },
    priority: { enum: ['low', 'normal', 'urgent'] },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 4,
      items: {
        type: 'object',
        properties: { task: { type: 'string' }, hours: { type: 'integer', minimum: 1, maximum: 8 } },
        required: ['task', 'hours'],
      },
    },
  },
  required: ['title', 'priority', 'items'],
  additionalProperties: false,
};

/** A promise and the function that resolves it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Whether `partial` could still become `final`: strings are prefixes, nothing else differs. */
function grows(partial: unknown, final: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (Array.isArray(final)) {
    return Array.isArray(partial) && partial.length <= final.length && partial.every((item, i) => grows(item, final[i]));
  }
  if (typeof final === 'object' && final !== null) {
    return (
      typeof partial === 'object' &&
      partial !== null &&
      Object.entries(partial).every(([key, value]) => grows(value, (final as Record<string, unknown>)[key]))
    );
  }
  return Object.is(partial, final);
}

describeEachReactMode('useObject', (mode) => {
  it('streams an object that only grows, then the validated object', async () => {
    const { pool, createEngine } = fakePool({ tokenMs: 10 });
    const seen: unknown[] = [];
    const { result } = renderHookWithPool(
      () => {
        const state = useObject({ schema: actions });
        seen.push(state.object);
        return state;
      },
      pool,
      mode,
    );
    await act(async () => void result.current.submit('Plan the launch.'));
    await settle();
    expect(result.current.status).toBe('done');
    const final = result.current.object;
    expect(validateJson(final, actions)).toBeUndefined();
    expect(seen.filter((o) => o !== undefined).length).toBeGreaterThan(3);
    for (const partial of seen) expect(grows(partial, final)).toBe(true);
    // The schema travelled with the job to the engine.
    const [call] = engineCalls(createEngine);
    expect(call?.request.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'object', schema: actions, strict: true } });
  });

  const validators: Array<[string, ObjectSchema]> = [
    ['zod', z.object({ title: z.string(), tags: z.array(z.enum(['a', 'b'])).max(3), done: z.boolean().optional() })],
    ['arktype', type({ title: 'string', tags: "('a' | 'b')[]", 'done?': 'boolean' })],
    [
      'valibot',
      toStandardJsonSchema(v.object({ title: v.string(), tags: v.array(v.picklist(['a', 'b'])), done: v.optional(v.boolean()) })),
    ],
  ];
  for (const [name, schema] of validators) {
    it(`takes a ${name} schema: its JSON Schema constrains the engine, its validator checks the answer`, async () => {
      const { pool, createEngine } = fakePool({ tokenMs: 5 });
      const { result } = renderHookWithPool(() => useObject({ schema }), pool, mode);
      await act(async () => void result.current.submit('Tag this.'));
      await settle();
      expect(result.current.error).toBeNull();
      expect(result.current.status).toBe('done');
      const object = result.current.object as { title: string; tags: string[] };
      expect(typeof object.title).toBe('string');
      expect(object.tags.every((tag) => tag === 'a' || tag === 'b')).toBe(true);
      const format = engineCalls(createEngine)[0]?.request.response_format as { json_schema: { schema: { type: string } } };
      expect(format.json_schema.schema.type).toBe('object');
    });
  }

  it('names the path and the value when the answer does not match (prompt mode on an engine that cannot constrain)', async () => {
    const { pool, createEngine } = fakePool({ constrain: false, reply: '{"title": "Launch", "priority": "soon", "items": []}' });
    const { result } = renderHookWithPool(() => useObject({ schema: actions, mode: 'prompt' }), pool, mode);
    await act(async () => void result.current.submit('Plan.'));
    await settle();
    expect(result.current.status).toBe('error');
    const error = result.current.error as ObjectValidationError;
    expect(error).toBeInstanceOf(ObjectValidationError);
    expect(error.path).toBe('priority');
    expect(error.value).toBe('soon');
    expect(error.message).toContain('"low", "normal", "urgent"');
    // Prompt mode sends no constraint, only the schema in the system message.
    const request = engineCalls(createEngine)[0]?.request;
    expect(request?.response_format).toBeUndefined();
    expect(String((request?.messages as Array<{ content: unknown }> | undefined)?.[0]?.content)).toContain('"priority"');
  });

  it('says the answer is not JSON, keeping the text', async () => {
    const { pool } = fakePool({ constrain: false, reply: 'Sure! Here is the plan.' });
    const { result } = renderHookWithPool(() => useObject({ schema: actions, mode: 'prompt' }), pool, mode);
    await act(async () => void result.current.submit('Plan.'));
    await settle();
    const error = result.current.error as ObjectValidationError;
    expect(error).toBeInstanceOf(ObjectValidationError);
    expect(error.path).toBe('');
    expect(error.text).toBe('Sure! Here is the plan.');
    expect(result.current.text).toBe('Sure! Here is the plan.');
  });

  it('ends with UnsupportedConstraintError before any token on an engine that cannot constrain', async () => {
    const { pool, createEngine } = fakePool({ constrain: false, tokenMs: 5 });
    const { result } = renderHookWithPool(() => useObject({ schema: actions }), pool, mode);
    await act(async () => void result.current.submit('Plan.'));
    await settle();
    expect(result.current.error).toBeInstanceOf(UnsupportedConstraintError);
    expect(engineCalls(createEngine)[0]?.tokens).toBe(0);
  });

  it('refuses a malformed schema by its path, sending nothing', async () => {
    const { pool, createEngine } = fakePool();
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'strin' } } } } as unknown as JsonSchema;
    const { result } = renderHookWithPool(() => useObject({ schema }), pool, mode);
    await act(async () => void result.current.submit('Plan.'));
    await settle();
    const error = result.current.error as InvalidSchemaError;
    expect(error).toBeInstanceOf(InvalidSchemaError);
    expect(error.path).toBe('properties.tags.items.type');
    expect(error.message).toContain('"strin"');
    expect(engineCalls(createEngine)).toHaveLength(0);
  });

  it('stop() while the finished answer is being validated (an async refine) settles at cancelled', async () => {
    const { promise: checked, resolve: pass } = deferred<boolean>();
    const schema = z.object({ title: z.string() }).refine(async () => checked, 'checked later');
    const onFinish = vi.fn();
    const { pool } = fakePool({ tokenMs: 5 });
    const { result } = renderHookWithPool(() => useObject({ schema, onFinish }), pool, mode);
    await act(async () => void result.current.submit('Title this.'));
    await settle();
    // The answer is in; its check has not finished.
    expect(result.current.status).toBe('streaming');
    expect(pool.getSnapshot().jobs).toHaveLength(0);
    await act(async () => result.current.stop());
    expect(result.current.status).toBe('cancelled');
    pass(true);
    await settle();
    expect(result.current.status).toBe('cancelled');
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('an answer 1,200 levels deep ends in a typed error, not a hook streaming for ever', async () => {
    const deep = `{"a":${'{"a":'.repeat(1200)}1${'}'.repeat(1200)}}`;
    const tree: JsonSchema = { type: 'object', properties: { a: { anyOf: [{ $ref: '#' }, { type: 'integer' }] } } };
    const { pool } = fakePool({ constrain: false, reply: deep, tokenMs: 1 });
    const { result } = renderHookWithPool(() => useObject({ schema: tree, mode: 'prompt' }), pool, mode);
    await act(async () => void result.current.submit('Nest.'));
    await settle();
    expect(result.current.status).toBe('error');
    const error = result.current.error as ObjectValidationError;
    expect(error).toBeInstanceOf(ObjectValidationError);
    expect(error.message).toContain('levels deep');
    expect(error.text).toBe(deep);
  });

  it('a schema that refers to itself ({ $ref: "#" }) is refused before anything is sent', async () => {
    const { pool, createEngine } = fakePool();
    const { result } = renderHookWithPool(() => useObject({ schema: { $ref: '#' } }), pool, mode);
    await act(async () => void result.current.submit('Anything.'));
    await settle();
    expect(result.current.status).toBe('error');
    expect(result.current.error).toBeInstanceOf(InvalidSchemaError);
    expect((result.current.error as InvalidSchemaError).path).toBe('$ref');
    expect(engineCalls(createEngine)).toHaveLength(0);
  });

  it('a validator that throws ends the job with ObjectValidationError', async () => {
    const schema = z.object({ title: z.string() }).refine(() => {
      throw new Error('validator bug');
    });
    const { pool } = fakePool({ tokenMs: 5 });
    const { result } = renderHookWithPool(() => useObject({ schema }), pool, mode);
    await act(async () => void result.current.submit('Title this.'));
    await settle();
    expect(result.current.status).toBe('error');
    expect(result.current.error).toBeInstanceOf(ObjectValidationError);
    expect(result.current.error?.message).toContain('validator bug');
  });

  it('stop() keeps the object so far; a later submit supersedes and unmount cancels', async () => {
    const { pool } = fakePool({ tokenMs: 20 });
    const { result, unmount } = renderHookWithPool(() => useObject({ schema: actions }), pool, mode);
    await act(async () => void result.current.submit('Plan.'));
    await act(() => vi.advanceTimersByTimeAsync(200));
    await act(async () => result.current.stop());
    expect(result.current.status).toBe('cancelled');
    const kept = result.current.object;
    await settle();
    expect(result.current.object).toBe(kept);
    await act(async () => void result.current.submit('Again.'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    unmount();
    await settle();
    expect(pool.getSnapshot().jobs).toHaveLength(0);
  });
});
