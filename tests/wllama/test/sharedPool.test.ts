import type { ChatCompletionChunk, CreateEngine } from '@inkling/scheduler';
import { sharedPool } from '@inkling/shared-pool';
import { manualPresence } from '@inkling/shared-pool/testing';
import { describe, expect, it } from 'vitest';
import { testEngines } from './engines.js';

const PROMPT = [{ role: 'user' as const, content: 'Write a short note about the weather in the city today.' }];

// wllama starts its own Web Worker, which a SharedWorker cannot: its shared pool is the
// tab-hosted one. Two clients in this page stand for two tabs (a BroadcastChannel reaches
// other channel objects of the same page as it reaches other tabs).
describe('a shared pool hosted by a tab, on a real wllama engine', () => {
  it('builds one engine for two clients, streams it to the one that does not host, and stops it on cancel', async () => {
    const name = `wllama-shared-${Math.random().toString(36).slice(2)}`;
    const built: number[] = [];
    const createEngine: CreateEngine = (index, onProgress, options) => {
      built.push(index);
      return testEngines('chat')(index, onProgress, options);
    };
    // The full view: the host tab watches the other client's job (both are this app).
    const options = { name, mode: 'tab', pool: { createEngine, size: 1 }, presence: manualPresence(), view: 'all' } as const;
    const host = sharedPool(options);
    const other = sharedPool(options);
    await host.load();
    await other.load();
    expect([host.isHost(), other.isHost()]).toEqual([true, false]);
    expect(built).toEqual([0]);

    const chunks: ChatCompletionChunk[] = [];
    const result = await other.submit({ params: { messages: PROMPT, max_tokens: 12 }, onChunk: (chunk) => chunks.push(chunk) });
    expect(result.status).toBe('done');
    expect(result.error).toBeUndefined();
    expect(result.text.length).toBeGreaterThan(0);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(result.text);
    await expect.poll(() => host.getSnapshot().recent.at(-1)).toMatchObject({ owner: other.clientId, status: 'done' });

    const long = other.submit({ params: { messages: PROMPT, max_tokens: 400 }, onChunk: () => {} });
    await expect.poll(() => host.getSnapshot().jobs.some((j) => j.tokens > 2), { timeout: 20_000 }).toBe(true);
    expect(other.cancel('job-2')).toBe(1);
    expect(await long).toMatchObject({ status: 'cancelled', cancelReason: 'cancel' });
    await expect.poll(() => host.getSnapshot().engines[0]?.state, { timeout: 10_000 }).toBe('idle');

    await other.unload();
    await host.unload();
    await expect.poll(() => host.getSnapshot().phase).toBe('idle');
    host.close();
    other.close();
  });
});
