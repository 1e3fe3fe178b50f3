import { EnginePool, type JobResult } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiEngines } from '../src/index.js';
import { type TestServer, gate, startServer, streamReply, until } from './openaiServer.js';

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const TEN = Array.from({ length: 10 }, (_, i) => ` t${i}`);

/**
 * A pool over one remote engine with `concurrency` lanes. With `hold`, the
 * server holds every batch item's request open until `hold` resolves (an
 * interactive job's request never waits), and counts how many it holds at once.
 */
async function remotePool(concurrency: number, hold?: Promise<void>) {
  const batch = { open: 0, peak: 0 };
  const server = await startServer({
    chat: async (req, res) => {
      const isBatch = String(req.body.messages?.[0]?.content).startsWith('item');
      if (isBatch) {
        batch.open += 1;
        batch.peak = Math.max(batch.peak, batch.open);
        void req.done.then(() => (batch.open -= 1));
        await hold;
      }
      await streamReply(req, res, TEN, { delayMs: hold ? 0 : 10 });
    },
  });
  current = server;
  const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', concurrency }), size: 1 });
  await pool.load();
  return { pool, server, batch };
}

const item = (i: number) => ({
  task: 'translate-page',
  preemptible: true,
  params: { messages: [{ role: 'user' as const, content: `item ${i}` }] },
});

describe('a remote engine with several lanes in an EnginePool', () => {
  it('runs one batch on all lanes but one, and an interactive job still gets a lane at once', async () => {
    const held = gate();
    const { pool, server, batch: heldBatch } = await remotePool(4, held.opened);
    const batch = Array.from({ length: 12 }, (_, i) => pool.submit(item(i)));
    await until(() => server.open('/chat/completions') === 3);
    // The last lane is kept for interactive work.
    expect(pool.getSnapshot()).toMatchObject({ running: 3, queued: 9 });

    // The batch's three requests are held open on the server: the interactive
    // job can only finish now if it never queued behind them.
    const result = await pool.submit({
      session: 'editor',
      priority: 'interactive',
      params: { messages: [{ role: 'user', content: 'Dear' }] },
    });
    expect(result).toMatchObject({ status: 'done', text: TEN.join('') });
    expect(server.peak('/chat/completions')).toBe(4);
    expect(pool.getSnapshot()).toMatchObject({ running: 3, queued: 9 });

    held.open();
    const results = await Promise.all(batch);
    expect(results.every((r) => r.status === 'done' && r.text === TEN.join(''))).toBe(true);
    // Three at a time, all through the run: never one lane, never the kept one.
    expect(heldBatch.peak).toBe(3);
    expect(server.peak('/chat/completions')).toBe(4);
    await pool.unload();
  });

  it('shares the lanes between two batches, and preempts a batch request (aborted on the server) for a second interactive job', async () => {
    const { pool, server } = await remotePool(4);
    const a = Array.from({ length: 6 }, (_, i) => pool.submit(item(i)));
    const b = Array.from({ length: 6 }, (_, i) => pool.submit({ ...item(i), task: 'summarise' }));
    // The last lane is kept for interactive work: the second batch gets the next lane the first gives back.
    const running = (task: string) => pool.getSnapshot().jobs.filter((j) => j.state === 'running' && j.task === task).length;
    await until(() => running('summarise') >= 1 && server.open('/chat/completions') === 3);

    // One editor's ghost text takes the kept lane; a second editor's preempts a batch request.
    const ask = (session: string) =>
      pool.submit({ session, priority: 'interactive', params: { messages: [{ role: 'user', content: 'x' }] } });
    const ghosts = await Promise.all([ask('editor'), ask('editor-2')]);
    const all: JobResult[] = await Promise.all([...a, ...b]);
    const preempted = all.filter((r) => r.status === 'preempted');
    expect(ghosts.map((r) => r.status)).toEqual(['done', 'done']);
    expect(preempted).toHaveLength(1);
    expect(preempted[0]).toMatchObject({ status: 'preempted', finishReason: 'abort' });
    // The victim's request was aborted on the server: one aborted request, the rest complete.
    await until(() => server.requests.filter((r) => r.aborted).length === 1);
    await pool.unload();
  });
});
