import { CallCancelledError } from '@inkling/scheduler/engine';
import { describe, expect, it } from 'vitest';
import { GPUDeviceLostError, WorkerCrashedError } from '../src/index.js';
import { shutDown } from '../src/page/webllmEngine.js';
import { WorkerClient } from '../src/page/workerClient.js';
import { FakeWorker } from './fakeWorker.js';

describe("WorkerClient: the page's end of the engine worker", () => {
  it('fails every waiting call and open stream with the crash, and every later call without sending it', async () => {
    const worker = new FakeWorker();
    const client = new WorkerClient(worker);
    await client.hello();
    const unloading = client.call('unload', undefined);
    const { chunks } = client.stream({ request: { messages: [{ role: 'user', content: 'hi' }], stream: true } });
    const reading = chunks.next();
    worker.crash();
    const error = await unloading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerCrashedError);
    await expect(reading).rejects.toBe(error);
    expect(client.death).toBe(error);
    const sent = worker.received.length;
    await expect(client.call('embed', { input: 'x' })).rejects.toBe(error);
    await expect(client.stream({ request: { messages: [], stream: true } }).chunks.next()).rejects.toBe(error);
    await expect(client.hello()).rejects.toBe(error);
    expect(worker.received).toHaveLength(sent);
  });

  it("matches each reply to its own call, the worker's typed error included", async () => {
    const worker = new FakeWorker();
    const client = new WorkerClient(worker);
    await client.hello();
    // No model is loaded: embed fails in the worker, typed there (a worker without its engine is fatal), unload answers.
    const [embedded, unloaded] = await Promise.allSettled([client.call('embed', { input: 'x' }), client.call('unload', undefined)]);
    expect(embedded).toMatchObject({ status: 'rejected', reason: expect.any(GPUDeviceLostError) });
    expect(unloaded).toEqual({ status: 'fulfilled', value: undefined });
  });

  it('once the worker is ended on purpose, a call still waiting and every later one fail with a cancel error, unsent', async () => {
    const worker = new FakeWorker();
    const client = new WorkerClient(worker);
    await client.hello();
    const { chunks } = client.stream({ request: { messages: [{ role: 'user', content: 'hi' }], stream: true } });
    client.close();
    const error = await chunks.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallCancelledError);
    const sent = worker.received.length;
    await expect(client.call('unload', undefined)).rejects.toBe(error);
    await expect(client.hello()).rejects.toBe(error);
    expect(worker.received).toHaveLength(sent);
  });

  it('shutDown asks the worker to unload, ends it, then closes the client', async () => {
    const worker = new FakeWorker();
    const client = new WorkerClient(worker);
    await client.hello();
    await shutDown(client, worker);
    expect(worker.kinds('unload')).toHaveLength(1);
    expect(worker.terminated).toBe(true);
    await expect(client.call('embed', { input: 'x' })).rejects.toBeInstanceOf(CallCancelledError);
  });
});
