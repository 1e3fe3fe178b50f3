import { expect, test } from 'vitest';
import { testEngines } from './engines.js';

test('smoke', async () => {
  const progress: unknown[] = [];
  const t0 = performance.now();
  const engine = await testEngines()(0, (p) => progress.push(p));
  const t1 = performance.now();
  const stream = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'Write a short note about the weather today in the city.' }], max_tokens: 40, temperature: 0, stream: true });
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  const t2 = performance.now();
  console.log(JSON.stringify({ load: t1 - t0, gen: t2 - t1, progress: progress.slice(-3), first: chunks[0], last: chunks.slice(-2) }));
  console.log(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''));
  expect(chunks.length).toBeGreaterThan(3);
  await engine.unload?.();
});
