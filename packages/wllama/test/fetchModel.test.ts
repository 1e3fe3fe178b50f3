import { globalTimers } from '@inkling/scheduler/engine';
import { type PoolTimers } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { ModelFetchError } from '../src/index.js';
import { fetchModel } from '../src/fetchModel.js';

const url = 'https://example.test/m.gguf';
const bytes = (n: number) => new Uint8Array(n).fill(7);

function streamed(parts: Uint8Array[], headers: Record<string, string> = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return new Response(body, { headers });
}

/** A fetch that never answers until its signal aborts. */
const never = (_url: string, init: RequestInit) =>
  new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));

describe('fetchModel', () => {
  it('returns the file as a Blob and reports bytes as they arrive', async () => {
    const seen: Array<[number, number]> = [];
    const blob = await fetchModel({
      url,
      fetch: async () => streamed([bytes(3), bytes(5)], { 'content-length': '8' }),
      signal: new AbortController().signal,
      timeoutMs: Number.POSITIVE_INFINITY,
      timers: globalTimers,
      onBytes: (loaded, total) => seen.push([loaded, total]),
    });
    expect(blob.size).toBe(8);
    expect(seen).toEqual([
      [0, 8],
      [3, 8],
      [8, 8],
    ]);
  });

  it('an error status is a ModelFetchError with the status and the URL', async () => {
    const load = fetchModel({
      url,
      fetch: async () => new Response('no', { status: 404 }),
      signal: new AbortController().signal,
      timeoutMs: 1000,
      timers: globalTimers,
      onBytes: () => {},
    });
    await expect(load).rejects.toMatchObject({ name: 'ModelFetchError', status: 404, url });
    await expect(load).rejects.toThrow(/HTTP 404/);
  });

  it('no answer within fetchTimeoutMs is a ModelFetchError with status 0', async () => {
    // Injected timers: the wait ends when the test says, with no real clock.
    const pending: Array<{ callback: () => void; ms: number }> = [];
    const timers: PoolTimers = { setTimeout: (callback, ms) => pending.push({ callback, ms }), clearTimeout: () => {} };
    const load = fetchModel({ url, fetch: never, signal: new AbortController().signal, timeoutMs: 20, timers, onBytes: () => {} });
    expect(pending.map((p) => p.ms)).toEqual([20]);
    pending[0]!.callback();
    await expect(load).rejects.toBeInstanceOf(ModelFetchError);
    await expect(load).rejects.toMatchObject({ status: 0 });
  });

  it("aborting rejects with the signal's reason and aborts the request", async () => {
    const controller = new AbortController();
    let requestSignal: AbortSignal | undefined;
    const pending = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        requestSignal = init.signal ?? undefined;
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const load = fetchModel({
      url,
      fetch: pending,
      signal: controller.signal,
      timeoutMs: Number.POSITIVE_INFINITY,
      timers: globalTimers,
      onBytes: () => {},
    });
    const reason = new Error('unloaded');
    controller.abort(reason);
    await expect(load).rejects.toBe(reason);
    expect(requestSignal?.aborted).toBe(true);
  });
});
