import { EnginePool } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { openaiEngines } from '../src/index.js';
import { simulatedServer } from '../src/testing/index.js';

describe('simulatedServer', () => {
  it('serves openaiEngines: streamed chat, usage, lanes, and cancellation by abort', async () => {
    const fetch = simulatedServer({ reply: () => 'one two three four five', prefillMs: 5, tokenMs: 5 });
    const pool = new EnginePool({
      createEngine: openaiEngines({ baseURL: 'https://llm.example/v1', model: 'simulated', fetch, concurrency: 4 }),
      size: 1,
    });
    await pool.load();
    const done = await pool.submit({ params: { messages: [{ role: 'user', content: 'x' }] } });
    expect(done).toMatchObject({ status: 'done', text: 'one two three four five', finishReason: 'stop' });
    expect(done.usage).toMatchObject({ completion_tokens: 5 });
    const long = pool.submit({ id: 'long', params: { messages: [{ role: 'user', content: 'x' }] } });
    await new Promise((r) => setTimeout(r, 12));
    pool.cancel('long');
    expect(await long).toMatchObject({ status: 'cancelled' });
    const embedded = await pool.submit({ kind: 'embedding', params: { input: ['a', 'b'] } });
    expect(embedded.embeddings).toHaveLength(2);
    await pool.unload();
  });
});
