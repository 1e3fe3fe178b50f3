import type { ChatCompletionChunk } from '@inkling/scheduler';
import type { WllamaEngine } from '@inkling/wllama';
import { afterAll, describe, expect, it } from 'vitest';
import { testEngines } from './engines.js';
import { spyOnWorkers } from './workerSpy.js';

const PROSE =
  'Thanks for the update on the project. I think we should move the meeting to next week, since the team is busy with the release. ' +
  'Could you send me the draft of the report before Friday? I want to review the numbers and check that the plan still makes sense. ';
const NOTE = PROSE.repeat(3);
// Each test re-reads the note a few times from scratch, on one thread.
const SLOW = 60_000;

const spy = spyOnWorkers();
afterAll(() => spy.restore());

async function ask(engine: WllamaEngine, content: string): Promise<{ text: string; usage: ChatCompletionChunk['usage'] }> {
  let text = '';
  let usage: ChatCompletionChunk['usage'];
  const stream = await engine.chat.completions.create({
    messages: [{ role: 'user', content }],
    max_tokens: 3,
    temperature: 0,
    stream: true,
  });
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    usage = chunk.usage ?? usage;
  }
  return { text, usage };
}

describe("a wllama engine bounding llama.cpp's host prompt cache (promptCacheLimitMiB)", () => {
  it(
    'restarts its worker once an edited prompt pushes the cache past the limit, and answers the same in the new one',
    async () => {
      const engine = (await testEngines('chat', { promptCacheLimitMiB: 1 })(0, () => {})) as WllamaEngine;
      try {
        const before = spy.created;
        const first = await ask(engine, NOTE);
        // At the end only: llama.cpp keeps the slot, nothing is cached.
        const grown = await ask(engine, `${NOTE}And one more line.`);
        expect(grown.usage?.cachedTokens).toBeGreaterThan(0);
        expect(engine.promptCache).toMatchObject({ prompts: 0, estimatedBytes: 0, restarts: 0 });
        // An edit at the start: the slot's ~230 tokens (6,144 bytes each on this model) go to the cache, past 1 MiB.
        await ask(engine, `Hello. ${NOTE}`);
        const again = await ask(engine, NOTE);
        expect(engine.promptCache.restarts).toBe(1);
        expect(spy.created - before).toBe(1);
        expect(spy.workers.slice(0, -1).filter((w) => spy.isAlive(w))).toHaveLength(0);
        // A fresh worker: nothing of the note is cached, and greedy decoding answers as before.
        expect(again.usage?.cachedTokens).toBe(0);
        expect(again.text).toBe(first.text);
        expect(engine.promptCache.restartMs).toBeGreaterThan(0);
      } finally {
        await engine.unload();
      }
      expect(spy.alive).toBe(0);
    },
    SLOW,
  );

  it(
    'with Infinity never restarts, however the prompt changes',
    async () => {
      const engine = (await testEngines('chat', { promptCacheLimitMiB: Number.POSITIVE_INFINITY })(0, () => {})) as WllamaEngine;
      try {
        const before = spy.created;
        for (const start of ['Hello. ', 'Dear team, ']) await ask(engine, `${start}${NOTE}`);
        expect(spy.created).toBe(before);
        expect(engine.promptCache).toEqual({ estimatedBytes: 0, prompts: 0, restarts: 0, restartMs: 0 });
      } finally {
        await engine.unload();
      }
    },
    SLOW,
  );
});
