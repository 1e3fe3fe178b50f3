import { EnginePool, type JobResult } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiEngines } from '../src/index.js';
import { type TestServer, startServer, streamReply, until } from './openaiServer.js';

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const TEN = Array.from({ length: 10 }, (_, i) => ` t${i}`);

async function remotePool(concurrency: number) {
  const server = await startServer({ chat: (req, res) => streamReply(req, res, TEN, { delayMs: 10 }) });
  current = server;
  const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', concurrency }), size: 1 });
  await pool.load();
  return { pool, server };
}

const item = (i: number) => ({
  task: 'translate-page',
  preemptible: true,
  params: { messages: [{ role: 'user' as const, content: `item ${i}` }] },
});

describe('a remote engine with several lanes in an EnginePool', () => {
  it('runs one batch on all lanes but one, and an interactive job still gets a lane at once', async () => {
    const { pool, server } = await remotePool(4);
    const batch = Array.from({ length: 12 }, (_, i) => pool.submit(item(i)));
    await until(() => server.open('/chat/completions') === 3);
    // The last lane is kept for a task that is not running.
    expect(pool.getSnapshot()).toMatchObject({ running: 3, queued: 9 });

    const ghost = pool.submit({ session: 'editor', priority: 'interactive', params: { messages: [{ role: 'user', content: 'Dear' }] } });
    await until(() => server.open('/chat/completions') === 4);
    const result = await ghost;
    const results = await Promise.all(batch);

    expect(result.status).toBe('done');
    // It never queued behind the batch: it started on submit and finished long before the batch.
    expect(result.startedAt! - result.submittedAt).toBeLessThan(50);
    expect(result.finishedAt).toBeLessThan(Math.max(...results.map((r) => r.finishedAt)));
    expect(results.every((r) => r.status === 'done' && r.text === TEN.join(''))).toBe(true);
    expect(server.peak('/chat/completions')).toBe(4);
    // Twelve items on three lanes take about four rounds, not twelve.
    const span = Math.max(...results.map((r) => r.finishedAt)) - Math.min(...results.map((r) => r.startedAt!));
    expect(span).toBeLessThan(12 * 100);
    await pool.unload();
  });

  it('shares the lanes between two batches, and preempts a batch request (aborted on the server) for a second interactive job', async () => {
    const { pool, server } = await remotePool(4);
    const a = Array.from({ length: 6 }, (_, i) => pool.submit(item(i)));
    const b = Array.from({ length: 6 }, (_, i) => pool.submit({ ...item(i), task: 'summarise' }));
    await until(() => server.open('/chat/completions') === 4);
    const tasks = pool.getSnapshot().jobs.filter((j) => j.state === 'running').map((j) => j.task);
    expect(tasks.filter((t) => t === 'summarise').length).toBeGreaterThanOrEqual(1);

    const ghost = pool.submit({ session: 'editor', priority: 'interactive', params: { messages: [{ role: 'user', content: 'x' }] } });
    const ghostResult = await ghost;
    const all: JobResult[] = await Promise.all([...a, ...b]);
    const preempted = all.filter((r) => r.preempted);
    expect(ghostResult.status).toBe('done');
    expect(preempted).toHaveLength(1);
    expect(preempted[0]).toMatchObject({ status: 'preempted', finishReason: 'abort' });
    // The victim's request was aborted on the server: one aborted request, the rest complete.
    await until(() => server.requests.filter((r) => r.aborted).length === 1);
    await pool.unload();
  });
});
