import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool } from '../src/index.js';
import type { ChatCompletionChunk, CreateEngine } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 60 }, (_, i) => `t${i}`).join(' ');

/** Fake engines (20 ms a token, a 100 ms prefill) that say they compute on `device`. */
function onDevice(device: string | undefined): CreateEngine {
  const create = fakeEngines({ reply: LONG, tokenMs: 20, prefillMs: 100 });
  return async (index, onProgress, load) => Object.assign(await create(index, onProgress, load), { device });
}

/** When each chunk of a job came, on the fake clock. */
const stamps = (at: number[]) => ({ onChunk: (_chunk: ChatCompletionChunk) => void at.push(Date.now()) });

async function keystrokeDuringBatch(device: string | undefined) {
  const pool = new EnginePool({ createEngine: onDevice(device), size: 2 });
  await vi.advanceTimersByTimeAsync(0);
  await pool.load();
  const batch: number[] = [];
  const batchDone = pool.submit(chat('batch', { priority: 'normal', ...stamps(batch) }));
  await vi.advanceTimersByTimeAsync(300);
  const ghost: number[] = [];
  const typedAt = Date.now();
  const ghostDone = pool.submit(chat('ghost', { priority: 'interactive', ...stamps(ghost) }));
  await vi.advanceTimersByTimeAsync(2000);
  const ghostFirst = ghost[0]!;
  const batchDuringPrefill = batch.filter((at) => at > typedAt && at < ghostFirst).length;
  await vi.runAllTimersAsync();
  const results = await Promise.all([batchDone, ghostDone]);
  await pool.unload();
  return { batchDuringPrefill, ghostWait: ghostFirst - typedAt, results, batchAfter: batch.filter((at) => at > ghostFirst).length };
}

describe('engines on one device (Engine.device): a keystroke prefills with the device to itself', () => {
  it('a batch on the other engine takes no step while the interactive job waits for its first token, then goes on', async () => {
    const shared = await keystrokeDuringBatch('webgpu');
    // At most the step already running when the keystroke came.
    expect(shared.batchDuringPrefill).toBeLessThanOrEqual(1);
    expect(shared.ghostWait).toBeGreaterThanOrEqual(100);
    expect(shared.batchAfter).toBeGreaterThan(10);
    expect(shared.results.map((r) => r.status)).toEqual(['done', 'done']);
  });

  it('the other lanes of the same engine are not held: an engine of lanes orders its own prefills', async () => {
    const create = fakeEngines({ reply: LONG, tokenMs: 20, prefillMs: 100, concurrency: 2 });
    const createEngine: CreateEngine = async (index, onProgress, load) =>
      Object.assign(await create(index, onProgress, load), { device: 'webgpu' });
    const pool = new EnginePool({ createEngine, size: 1 });
    await vi.advanceTimersByTimeAsync(0);
    await pool.load();
    const batch: number[] = [];
    const batchDone = pool.submit(chat('batch', { priority: 'normal', ...stamps(batch) }));
    await vi.advanceTimersByTimeAsync(300);
    const ghost: number[] = [];
    const typedAt = Date.now();
    const ghostDone = pool.submit(chat('ghost', { priority: 'interactive', ...stamps(ghost) }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(pool.getSnapshot().engines).toHaveLength(1);
    expect(batch.filter((at) => at > typedAt && at < ghost[0]!).length).toBeGreaterThanOrEqual(4);
    await vi.runAllTimersAsync();
    expect((await Promise.all([batchDone, ghostDone])).map((r) => r.status)).toEqual(['done', 'done']);
    await pool.unload();
  });

  it('engines that share nothing keep streaming side by side', async () => {
    const apart = await keystrokeDuringBatch(undefined);
    expect(apart.batchDuringPrefill).toBeGreaterThanOrEqual(4);
    expect(apart.results.map((r) => r.status)).toEqual(['done', 'done']);
  });

  it('never holds a batch longer than 250 ms, however long the first token takes', async () => {
    const create = fakeEngines({ reply: LONG, tokenMs: 20 });
    const slowFirst = fakeEngines({ reply: 'x', tokenMs: 20, prefillMs: 2000 });
    let built = 0;
    const createEngine: CreateEngine = async (index, onProgress, load) => {
      built += 1;
      return Object.assign(await (built === 1 ? create : slowFirst)(index, onProgress, load), { device: 'webgpu' });
    };
    const pool = new EnginePool({ createEngine, size: 2 });
    await vi.advanceTimersByTimeAsync(0);
    await pool.load();
    const batch: number[] = [];
    const batchDone = pool.submit(chat('batch', { priority: 'normal', ...stamps(batch) }));
    await vi.advanceTimersByTimeAsync(100);
    const typedAt = Date.now();
    const ghostDone = pool.submit(chat('ghost', { priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(1000);
    const gaps = batch.filter((at) => at > typedAt).map((at, i, all) => at - (all[i - 1] ?? typedAt));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(250 + 20);
    await vi.runAllTimersAsync();
    expect((await Promise.all([batchDone, ghostDone])).map((r) => r.status)).toEqual(['done', 'done']);
    await pool.unload();
  });

  it('a batch cancelled while it waits for its turn stops at once', async () => {
    const pool = new EnginePool({ createEngine: onDevice('webgpu'), size: 2 });
    await vi.advanceTimersByTimeAsync(0);
    await pool.load();
    const controller = new AbortController();
    const batchDone = pool.submit(chat('batch', { priority: 'normal', signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(200);
    const ghostDone = pool.submit(chat('ghost', { priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(30);
    controller.abort();
    expect((await batchDone).status).toBe('cancelled');
    await vi.runAllTimersAsync();
    expect((await ghostDone).status).toBe('done');
    expect(pool.getSnapshot().engines.every((e) => e.state === 'idle')).toBe(true);
    await pool.unload();
  });
});
