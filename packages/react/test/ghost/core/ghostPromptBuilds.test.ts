// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../../../src/ghost/core/ghostTextController.js';
import { defaultGhostParams } from '../../../src/ghost/core/ghostPrompt.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('builds the prompt only when a request is sent or a cached reply may answer the text, never per keystroke before the debounce', async () => {
  const { pool } = fakePool({ reply: () => ' world', tokenMs: 5 }, { size: 1 });
  await pool.load();
  const buildParams = vi.fn(defaultGhostParams);
  const ghost = new GhostTextController(pool, { session: 's', text: '', speculate: false, buildParams });
  const type = (text: string) => ghost.setOptions({ session: 's', text, speculate: false, buildParams });
  for (const text of ['H', 'He', 'Hel', 'Hell', 'Hello']) type(text);
  expect(buildParams).not.toHaveBeenCalled();
  await vi.runAllTimersAsync();
  expect(buildParams).toHaveBeenCalledTimes(1); // the request, after the debounce
  expect(ghost.getSnapshot().suggestion).toBe(' world');
  type('Hello!'); // new text that no cached reply fits
  expect(buildParams).toHaveBeenCalledTimes(1);
  await vi.runAllTimersAsync();
  expect(buildParams).toHaveBeenCalledTimes(2); // its request
  type('Hello'); // back to the answered text: the cache lookup needs its request
  expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' world', fromCache: true });
  expect(buildParams).toHaveBeenCalledTimes(3);
  ghost.dispose();
});
