/**
 * What the pool costs per job: 10k jobs through `EnginePool` on a zero-delay
 * fake engine, against calling the same fake engine directly, in one run.
 */
import { EnginePool } from '@inkling/scheduler';
import type { ChatCompletionRequest } from '@inkling/scheduler';
import { createFakeEngine } from '@inkling/scheduler/testing';
import { median } from '../shared/stats.js';

const REQUEST: ChatCompletionRequest = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 };

async function direct(jobs: number): Promise<number> {
  const engine = createFakeEngine({ reply: 'a b c' });
  const start = performance.now();
  for (let i = 0; i < jobs; i += 1) {
    const stream = await engine.chat.completions.create({ ...REQUEST, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    if (text !== 'a b c') throw new Error(`unexpected text ${text}`);
  }
  return performance.now() - start;
}

async function pooled(jobs: number): Promise<number> {
  const engine = createFakeEngine({ reply: 'a b c' });
  const pool = new EnginePool({ createEngine: async () => engine, size: 1, historySize: 50 });
  await pool.load();
  const start = performance.now();
  const results = [];
  for (let i = 0; i < jobs; i += 1) results.push(pool.submit({ params: REQUEST, task: 'bench' }));
  const settled = await Promise.all(results);
  const elapsed = performance.now() - start;
  if (settled.some((r) => r.text !== 'a b c')) throw new Error('a pooled job came back wrong');
  await pool.unload();
  return elapsed;
}

export interface OverheadResult {
  jobs: number;
  rounds: number;
  directMs: number;
  poolMs: number;
  overheadPerJobUs: number;
  ratio: number;
}

export async function measureOverhead(jobs = 10_000, rounds = 5): Promise<OverheadResult> {
  await direct(1000); // warm up both paths
  await pooled(1000);
  const d: number[] = [];
  const p: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    // Alternate the order so neither path always runs on a warmer heap.
    if (r % 2 === 0) {
      d.push(await direct(jobs));
      p.push(await pooled(jobs));
    } else {
      p.push(await pooled(jobs));
      d.push(await direct(jobs));
    }
  }
  const directMs = median(d);
  const poolMs = median(p);
  return { jobs, rounds, directMs, poolMs, overheadPerJobUs: ((poolMs - directMs) * 1000) / jobs, ratio: poolMs / directMs };
}
