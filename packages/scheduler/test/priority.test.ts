import { describe, expect, it } from 'vitest';
import { EnginePool } from '../src/index.js';
import { createFakeEngine } from '../src/testing/index.js';
import { chat, drain, fakePool } from './helpers.js';

describe('priority bands', () => {
  it('starts higher bands first and keeps submission order within a band', async () => {
    const engine = createFakeEngine({ reply: 'ok' });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const order: string[] = [];
    // One task for all of them, so the single engine serialises them.
    const submit = (id: string, priority: 'high' | 'normal' | 'low') =>
      pool.submit(chat(id, { id, priority, task: 'same' })).then((r) => order.push(r.id));
    const blocker = submit('first', 'normal');
    await Promise.all([
      submit('low-1', 'low'),
      submit('normal-1', 'normal'),
      submit('high-1', 'high'),
      submit('normal-2', 'normal'),
      submit('high-2', 'high'),
      blocker,
    ]);
    expect(order).toEqual(['first', 'high-1', 'high-2', 'normal-1', 'normal-2', 'low-1']);
  });

  it('runs a chat job and resolves with the streamed text, usage and finish reason', async () => {
    const { pool } = fakePool({ reply: 'Hello there friend' });
    await pool.load();
    const chunks: string[] = [];
    const result = await pool.submit(chat('hi', { onChunk: (c) => chunks.push(c.choices[0]?.delta.content ?? '') }));
    expect(result).toMatchObject({
      status: 'done',
      text: 'Hello there friend',
      finishReason: 'stop',
      engineIndex: 0,
    });
    // `status` alone says how it ended.
    expect(Object.keys(result)).not.toContain('cancelled');
    expect(Object.keys(result)).not.toContain('preempted');
    expect(result.usage).toMatchObject({ completion_tokens: 3 });
    expect(chunks.join('')).toBe('Hello there friend');
    expect(result.startedAt).toBeGreaterThanOrEqual(result.submittedAt);
    expect(result.finishedAt).toBeGreaterThanOrEqual(result.startedAt ?? 0);
  });

  it('reports a max_tokens truncation as "length"', async () => {
    const { pool } = fakePool({ reply: 'one two three four' });
    await pool.load();
    const result = await pool.submit({ params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 2 } });
    expect(result.text).toBe('one two');
    expect(result.finishReason).toBe('length');
  });

  it('passes chunks to onChunk verbatim', async () => {
    const { pool } = fakePool({ reply: 'a b' });
    await pool.load();
    const seen: unknown[] = [];
    await pool.submit(chat('x', { onChunk: (c) => seen.push(c) }));
    expect(seen[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'fake-model', id: expect.any(String) });
  });

  it('keeps running when an onChunk callback throws', async () => {
    const { pool } = fakePool({ reply: 'a b c' });
    await pool.load();
    const errors: unknown[] = [];
    const original = globalThis.reportError;
    globalThis.reportError = (e: unknown) => errors.push(e);
    try {
      const result = await pool.submit(
        chat('x', {
          onChunk: () => {
            throw new Error('boom');
          },
        }),
      );
      expect(result.text).toBe('a b c');
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      globalThis.reportError = original;
    }
    await drain();
  });
});
