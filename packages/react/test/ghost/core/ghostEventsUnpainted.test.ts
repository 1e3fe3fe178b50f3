// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../../../src/ghost/core/ghostTextController.js';
import type { GhostTextEvent } from '../../../src/ghost/core/ghostTextEvent.js';
import { ghostEvents } from '../../../src/ghost/core/ghostTextEvents.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('a streaming start typed over before the frame that would paint it was never on screen: superseded, not shown', async () => {
  const { pool } = fakePool({ reply: ' one two three', tokenMs: 200, prefillMs: 100 }, { size: 1 });
  await pool.load();
  const events: GhostTextEvent[] = [];
  const options = { session: 's', speculate: false, events: ghostEvents((event) => events.push(event)) };
  const frames = { now: () => Date.now(), scheduleFrame: (fn: () => void) => clearing(setTimeout(fn, 16)) };
  const ghost = new GhostTextController(pool, { ...options, text: '' }, frames);
  const painted: string[] = [];
  const stop = ghost.subscribe(() => painted.push(ghost.getSnapshot().suggestion));
  ghost.setOptions({ ...options, text: 'Hi' });
  await vi.advanceTimersByTimeAsync(225); // the debounce (120) and the prefill (100): " one" is there, its frame not yet
  expect(ghost.getSnapshot().suggestion).toBe(' one');
  ghost.setOptions({ ...options, text: 'Hix' });
  await vi.advanceTimersByTimeAsync(10);
  expect(painted.filter(Boolean)).toEqual([]); // the person never saw it
  expect(events.map((event) => [event.suggestion, event.type])).toEqual([[1, 'superseded']]);
  // The same start, painted (the frame came) and then typed over: shown, then rejected.
  await vi.advanceTimersByTimeAsync(2000);
  ghost.setOptions({ ...options, text: 'Hi!' }); // turns down what 'Hix' got
  events.length = 0;
  await vi.advanceTimersByTimeAsync(240); // its first token, and a frame after it
  ghost.setOptions({ ...options, text: 'Hi!x' });
  expect(events.map((event) => event.type)).toEqual(['shown', 'rejected']);
  stop();
  ghost.dispose();
});

const clearing = (frame: ReturnType<typeof setTimeout>) => () => clearTimeout(frame);
