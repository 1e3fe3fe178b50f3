import type { ChatCompletionChunk } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { WorkerCrashedError } from '@inkling/scheduler';
import { type EngineWorker, WllamaEngine } from '../src/wllamaEngine.js';
import type { WllamaChatCall } from '../src/wllamaLike.js';
import { WorkerWatch } from '../src/workerWatch.js';

const NOTE = 'The weather today is mild and the meeting moved to Friday, so the report can wait a little. '.repeat(10);
const LOADED = { model: 'tiny.gguf', threads: 1, embeddingWidth: 256, contextSize: 2048, embeddings: false };

/** A stand-in for a loaded wllama worker: answers "ok" with usage (one token a character of the prompt). */
class FakeWorker implements EngineWorker {
  readonly watch = new WorkerWatch();
  readonly prompts: string[] = [];
  exited = false;
  readonly wllama = {
    createChatCompletion: async (call: WllamaChatCall) => {
      if (this.exited) throw new Error('worker gone');
      const content = (call.messages as Array<{ content: string }>).map((m) => m.content).join('');
      this.prompts.push(content);
      call.onData({ id: 'c', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: null }] });
      call.onData({
        id: 'c',
        choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
        usage: { prompt_tokens: content.length + 6, completion_tokens: 1 },
        timings: { cache_n: 0 },
      });
      return undefined;
    },
    createEmbedding: async () => ({}),
    exit: async () => {
      this.exited = true;
    },
  };
}

async function ask(engine: WllamaEngine, content: string): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of await engine.chat.completions.create({ messages: [{ role: 'user', content }], stream: true }))
    chunks.push(chunk);
  return chunks;
}

function engineWith(limitBytes: number, restart: () => Promise<EngineWorker>) {
  const first = new FakeWorker();
  const engine = new WllamaEngine(first, LOADED, { limitBytes, bytesPerToken: 100, restart });
  return { engine, first };
}

describe('a wllama engine bounding llama.cpp prompt cache', () => {
  it('restarts its worker between jobs once the estimate passes the limit, and the next job runs on the new one', async () => {
    const workers: FakeWorker[] = [];
    const { engine, first } = engineWith(150_000, async () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    });
    await ask(engine, NOTE);
    await ask(engine, `X${NOTE}`); // saves NOTE: ~(916 tokens) × 100 bytes, under the limit
    expect(engine.promptCache).toMatchObject({ prompts: 1, restarts: 0 });
    expect(first.exited).toBe(false);
    await ask(engine, `Y${NOTE}`); // saves X…: past 150,000 bytes
    const chunks = await ask(engine, `Z${NOTE}`);
    expect(chunks.map((c) => c.choices[0]?.delta.content).filter(Boolean)).toEqual(['ok']);
    expect(first.exited).toBe(true);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.prompts).toEqual([`Z${NOTE}`]);
    expect(engine.promptCache).toMatchObject({ estimatedBytes: 0, prompts: 0, restarts: 1 });
    expect(engine.promptCache.restartMs).toBeGreaterThanOrEqual(0);
  });

  it('never restarts while the prompt only grows at its end', async () => {
    let restarts = 0;
    const { engine } = engineWith(1, async () => {
      restarts += 1;
      return new FakeWorker();
    });
    for (let i = 100; i <= NOTE.length; i += 50) await ask(engine, NOTE.slice(0, i));
    expect(restarts).toBe(0);
    expect(engine.promptCache.estimatedBytes).toBe(0);
  });

  it('fails the next job with a fatal WorkerCrashedError when the restart fails, so the pool replaces the engine', async () => {
    const { engine } = engineWith(1, async () => {
      throw new Error('no memory for a second worker');
    });
    await ask(engine, NOTE);
    await ask(engine, `X${NOTE}`);
    await expect(ask(engine, NOTE)).rejects.toBeInstanceOf(WorkerCrashedError);
    await expect(ask(engine, NOTE)).rejects.toThrow(/could not be restarted.*no memory for a second worker/);
  });

  it('unload() during a restart leaves no worker running', async () => {
    let release!: () => void;
    const next = new FakeWorker();
    const { engine, first } = engineWith(1, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return next;
    });
    await ask(engine, NOTE);
    await ask(engine, `X${NOTE}`);
    const unloading = engine.unload();
    await Promise.resolve();
    release();
    await unloading;
    expect(first.exited).toBe(true);
    expect(next.exited).toBe(true);
  });

  it('a job cancelled while it waits for the restart ends with an abort chunk and sends nothing', async () => {
    let release!: () => void;
    const next = new FakeWorker();
    const { engine } = engineWith(1, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return next;
    });
    await ask(engine, NOTE);
    await ask(engine, `X${NOTE}`);
    const controller = new AbortController();
    const stream = await engine.chat.completions.create(
      { messages: [{ role: 'user', content: NOTE }], stream: true },
      { signal: controller.signal },
    );
    const chunks: ChatCompletionChunk[] = [];
    const reading = (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })();
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    release();
    await reading;
    expect(chunks.map((c) => c.choices[0]?.finish_reason)).toEqual(['abort']);
    expect(next.prompts).toEqual([]);
  });
});
