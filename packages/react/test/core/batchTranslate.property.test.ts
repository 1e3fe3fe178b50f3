// @vitest-environment node
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import * as fc from 'fast-check';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type BatchTranslateOptions, BatchTranslateController } from '../../src/translate/core/batchTranslateController.js';
import { inklingKeys, mapCache } from '../../src/base/core/cacheKeys.js';
import { engineCalls, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const shout = (request: StreamingChatCompletionRequest) => String(request.messages.at(-1)?.content).toUpperCase();

/** Items as pages have them: words, repeats, empty strings and whitespace of every kind. */
const item = fc.oneof(
  fc.constantFrom('', ' ', '\n', '\t \u00a0', '\u3000', 'hello', 'good night', 'hello'),
  fc.stringMatching(/^[a-z]{1,6}( [a-z]{1,6}){0,2}$/),
);

it('any list, changed while it runs, ends with every item done: blanks empty, never sent, never cached', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(item, { maxLength: 25 }), fc.array(item, { maxLength: 25 }), async (first, second) => {
      const { pool, createEngine } = fakePool({ reply: shout, tokenMs: 3 }, { size: 1 });
      await pool.load();
      const cache = mapCache();
      const options: BatchTranslateOptions = { task: 'page', items: first, to: 'fr' };
      const batch = new BatchTranslateController(pool, options, { cache, modelId: 'm' });
      batch.setOptions(options);
      await vi.advanceTimersByTimeAsync(7); // the list changes while items run
      batch.setOptions({ ...options, items: second });
      await vi.runAllTimersAsync();
      const state = batch.getSnapshot();
      expect(state.results.map((r) => r.source)).toEqual(second);
      expect(state.results.map((r) => r.text)).toEqual(second.map((s) => (s.trim() ? s.toUpperCase() : '')));
      expect(state.progress).toEqual({ done: second.length, total: second.length });
      expect(state.status).toBe(second.length ? 'done' : 'idle');
      const sent = engineCalls(createEngine).map((c) => String((c.request as StreamingChatCompletionRequest).messages.at(-1)?.content));
      expect(sent.filter((s) => !s.trim())).toEqual([]);
      const blanks = [...first, ...second].filter((s) => !s.trim());
      expect(blanks.map((s) => cache.read(inklingKeys.translation('m', undefined, 'fr', s)))).toEqual(blanks.map(() => undefined));
      await pool.unload();
    }),
    { numRuns: 60, seed: 10 },
  );
});
