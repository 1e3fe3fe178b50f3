// @vitest-environment node
import type { JobResult } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CompletionController } from '../../src/completion/core/completionController.js';
import { engineCalls, fakePool, flushMicrotasks, manualFrames, words } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('CompletionController', () => {
  it('streams a completion and ends with its finish reason and usage', async () => {
    const { pool } = fakePool({ reply: 'Roses are red', tokenMs: 10 });
    await pool.load();
    const completion = new CompletionController(pool);
    const result = completion.complete('A poem');
    expect(completion.getSnapshot().status).toBe('queued');
    await vi.advanceTimersByTimeAsync(17);
    expect(completion.getSnapshot()).toMatchObject({ status: 'streaming', completion: 'Roses are' });
    await vi.runAllTimersAsync();
    expect((await result).status).toBe('done');
    expect(completion.getSnapshot()).toMatchObject({ status: 'done', completion: 'Roses are red', finishReason: 'stop', error: null });
    expect(completion.getSnapshot().usage?.completion_tokens).toBe(3);
    expect(pool.getSnapshot().recent.at(-1)?.priority).toBe('high');
  });

  it('notifies at most once per frame while tokens stream', async () => {
    const frames = manualFrames();
    const { pool } = fakePool({ reply: words(40), tokenMs: 1 });
    await pool.load();
    const completion = new CompletionController(pool, {}, frames.scheduleFrame);
    let notifications = 0;
    completion.subscribe(() => (notifications += 1));
    void completion.complete('go');
    await flushMicrotasks();
    notifications = 0;
    await vi.advanceTimersByTimeAsync(20); // ~20 tokens, no frame yet
    expect(completion.getSnapshot().completion.split(' ').length).toBeGreaterThan(15);
    expect(notifications).toBe(0);
    expect(frames.pending).toBe(1);
    frames.tick();
    expect(notifications).toBe(1);
    await vi.runAllTimersAsync();
    frames.tick();
    expect(completion.getSnapshot().status).toBe('done');
    expect(notifications).toBeLessThanOrEqual(3);
  });

  it('stop() cancels the job and keeps the partial text', async () => {
    const { pool } = fakePool({ reply: words(20), tokenMs: 10 });
    await pool.load();
    const completion = new CompletionController(pool);
    const result = completion.complete('go');
    await vi.advanceTimersByTimeAsync(25);
    completion.stop();
    expect(completion.getSnapshot()).toMatchObject({ status: 'cancelled', completion: 'w0 w1 w2', finishReason: 'abort' });
    await vi.runAllTimersAsync();
    expect((await result).status).toBe('cancelled');
    expect(completion.getSnapshot().completion).toBe('w0 w1 w2');
  });

  it('a new complete() cancels the one before, whose output is never shown', async () => {
    const { pool, createEngine } = fakePool({ reply: (r) => `re ${String(r.messages[0]?.content)} a b c`, tokenMs: 10 });
    await pool.load();
    const completion = new CompletionController(pool);
    const first = completion.complete('one');
    await vi.advanceTimersByTimeAsync(15);
    expect(completion.getSnapshot().completion).toBe('re one');
    const second = completion.complete('two');
    expect(completion.getSnapshot()).toMatchObject({ completion: '', status: 'queued' });
    const texts: string[] = [];
    completion.subscribe(() => texts.push(completion.getSnapshot().completion));
    await vi.runAllTimersAsync();
    expect((await first).status).toBe('cancelled');
    expect((await second).status).toBe('done');
    expect(completion.getSnapshot().completion).toBe('re two a b c');
    expect(texts.filter((t) => t.includes('one'))).toEqual([]);
    expect(engineCalls(createEngine)).toHaveLength(2);
  });

  it('reports an engine error as state, and calls onFinish with every result', async () => {
    const { pool, createEngine } = fakePool({ reply: 'x', tokenMs: 1 });
    await pool.load();
    const onFinish = vi.fn<(result: JobResult) => void>();
    const completion = new CompletionController(pool, { onFinish });
    createEngine.engines[0]!.failNext(new Error('out of memory'));
    const result = await completion.complete('go');
    expect(result.status).toBe('error');
    expect(completion.getSnapshot().status).toBe('error');
    expect(completion.getSnapshot().error?.message).toContain('out of memory');
    expect(onFinish).toHaveBeenCalledWith(result);
  });

  it('losing its last listener cancels the running job', async () => {
    const { pool } = fakePool({ reply: words(20), tokenMs: 10 });
    await pool.load();
    const completion = new CompletionController(pool);
    const unsubscribe = completion.subscribe(() => {});
    const result = completion.complete('go');
    await vi.advanceTimersByTimeAsync(15);
    unsubscribe();
    await flushMicrotasks();
    await vi.runAllTimersAsync();
    expect((await result).status).toBe('cancelled');
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0 });
  });
});
