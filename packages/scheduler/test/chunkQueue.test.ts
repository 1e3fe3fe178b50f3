// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ChunkQueue } from '../src/engine.js';

describe('ChunkQueue', () => {
  it('hands queued items over in order, then ends after the last one', async () => {
    const queue = new ChunkQueue<string>();
    queue.push('a');
    queue.push('b');
    queue.end();
    queue.push('late');
    const read: string[] = [];
    for await (const item of queue) read.push(item);
    expect(read).toEqual(['a', 'b']);
    expect(queue.ended).toBe(true);
  });

  it('wakes a reader that waits with the next item, and with the end', async () => {
    const queue = new ChunkQueue<number>();
    const first = queue.next();
    queue.push(1);
    await expect(first).resolves.toEqual({ done: false, value: 1 });
    const second = queue.next();
    queue.end();
    await expect(second).resolves.toEqual({ done: true, value: undefined });
  });

  it('fails a waiting reader when the producer fails (an abort while waiting)', async () => {
    const queue = new ChunkQueue<number>();
    const waiting = queue.next();
    const aborted = new DOMException('stopped', 'AbortError');
    queue.fail(aborted);
    await expect(waiting).rejects.toBe(aborted);
    // Said once: later reads see the same failure, later pushes are dropped.
    queue.push(2);
    await expect(queue.next()).rejects.toBe(aborted);
  });

  it('delivers the items queued before a failure, then the failure', async () => {
    const queue = new ChunkQueue<number>();
    queue.push(1);
    queue.fail(new Error('worker died'));
    queue.end();
    await expect(queue.next()).resolves.toEqual({ done: false, value: 1 });
    await expect(queue.next()).rejects.toThrow('worker died');
  });

  it('pulls once per read that finds nothing queued (backpressure), and never for a queued item', async () => {
    let pulls = 0;
    const queue = new ChunkQueue<number>(() => {
      pulls += 1;
      // The producer answers each pull with one item, later.
      queueMicrotask(() => queue.push(pulls));
    });
    await expect(queue.next()).resolves.toEqual({ done: false, value: 1 });
    await expect(queue.next()).resolves.toEqual({ done: false, value: 2 });
    expect(pulls).toBe(2);
    queue.push(99);
    await expect(queue.next()).resolves.toEqual({ done: false, value: 99 });
    expect(pulls).toBe(2);
    queue.end();
    await expect(queue.next()).resolves.toEqual({ done: true, value: undefined });
    expect(pulls).toBe(2);
  });
});
