import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('a translation job through a PoolClient', () => {
  it("reaches the host's pool as a translation: a chat engine there gets the translation prompt and the text streams back", async () => {
    const scene = sharedScene({
      reply: (request) => (String(request.messages[0]?.content).includes('into French') ? 'Bonjour tout le monde' : 'wrong prompt'),
      tokenMs: 10,
    });
    const { client } = scene.tab('a');
    await client.load();
    const seen: string[] = [];
    const job = client.submit({
      kind: 'translation',
      params: { text: 'Hello everyone', from: 'en', to: 'fr' },
      onChunk: (chunk) => seen.push(chunk.choices[0]?.delta.content ?? ''),
    });
    await run(100);
    expect(await job).toMatchObject({ status: 'done', text: 'Bonjour tout le monde' });
    expect(seen.join('')).toBe('Bonjour tout le monde');
    expect(scene.host.pool.getSnapshot().recent.at(-1)).toMatchObject({ kind: 'translation', status: 'done' });
    scene.close();
  });
});
