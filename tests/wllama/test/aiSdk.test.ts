import { createInkling } from '@inkling/ai-sdk';
import { EnginePool } from '@inkling/scheduler';
import { generateObject, generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testEngines } from './engines.js';

describe('the AI SDK over a real wllama engine (the generated model)', () => {
  let pool: EnginePool;
  let inkling: ReturnType<typeof createInkling>;
  beforeAll(async () => {
    pool = new EnginePool({ createEngine: testEngines('chat'), size: 1 });
    await pool.load();
    inkling = createInkling({ pool });
  });
  afterAll(() => pool.unload());

  it('generateText: text, usage and finish reason', async () => {
    const result = await generateText({ model: inkling('tiny'), prompt: 'Write about the weather.', maxOutputTokens: 12, seed: 3 });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.finishReason).toBe('length');
    expect(result.usage.outputTokens).toBe(12);
    expect(result.usage.inputTokens).toBeGreaterThan(5);
  });

  it('streamText streams; abort mid-stream settles the job and frees the engine', async () => {
    const abort = new AbortController();
    const result = streamText({ model: inkling('tiny'), prompt: 'Tell a long story.', maxOutputTokens: 200, abortSignal: abort.signal });
    let pieces = 0;
    for await (const _ of result.textStream) {
      pieces += 1;
      if (pieces === 3) abort.abort();
    }
    expect(pieces).toBeGreaterThanOrEqual(3);
    expect(pool.getSnapshot().jobs).toHaveLength(0);
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    // The engine is free: the next call runs and ends normally.
    const next = await generateText({ model: inkling('tiny'), prompt: 'Again.', maxOutputTokens: 4 });
    expect(next.usage.outputTokens).toBe(4);
  });

  it('generateObject returns an object valid against its schema (only the constraint can make it so)', async () => {
    // Letters only in the free string: random weights free to pick any byte write broken UTF-8 (see structuredOutput.test.ts).
    const schema = z.object({
      title: z.string().regex(/^[a-z ]{1,16}$/),
      priority: z.enum(['low', 'high']),
      hours: z.number().int().min(1).max(8),
    });
    for (const seed of [1, 2, 3]) {
      const { object } = await generateObject({
        model: inkling('tiny'),
        schema,
        prompt: 'Plan a task as JSON.',
        seed,
        maxOutputTokens: 200,
      });
      expect(schema.parse(object)).toEqual(object);
    }
  });
});
