// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../../../src/ghost/core/ghostTextController.js';
import type { GhostTextEvent } from '../../../src/ghost/core/ghostTextEvent.js';
import { ghostEvents } from '../../../src/ghost/core/ghostTextEvents.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it.each(['all', 'word'] as const)(
  'accepting (%s) all of a suggestion still streaming: what streams next is another suggestion, shown once, never the same number twice',
  async (how) => {
    const { pool } = fakePool({ reply: ' one two three', tokenMs: 200 }, { size: 1 });
    await pool.load();
    const events: GhostTextEvent[] = [];
    const options = { session: 's', speculate: false, events: ghostEvents((event) => events.push(event)) };
    const ghost = new GhostTextController(pool, { ...options, text: '' });
    const stop = ghost.subscribe(() => {});
    ghost.setOptions({ ...options, text: 'Hi' });
    await vi.advanceTimersByTimeAsync(150); // the debounce and the first token: " one"
    expect(ghost.getSnapshot().suggestion).toBe(' one');
    const { text } = how === 'all' ? ghost.accept() : ghost.acceptWord();
    ghost.setOptions({ ...options, text });
    await vi.advanceTimersByTimeAsync(1000);
    stop();
    ghost.dispose();
    const shown = events.filter((event) => event.type === 'shown');
    expect(shown.map((event) => event.characters)).toEqual([4, 10]); // " one", then " two three"
    expect(new Set(shown.map((event) => event.suggestion)).size).toBe(2);
    const [first, second] = shown.map((event) => event.suggestion);
    expect(events.filter((event) => event.suggestion === first).map((event) => event.type)).toEqual(['shown', 'accepted']);
    expect(events.filter((event) => event.suggestion === second).map((event) => event.type)).toEqual(['shown', 'superseded']);
  },
);

it('a suggestion its own reply takes off the screen (the complete reply echoes the text) is shown once and ends superseded, with no phantom after it', async () => {
  const { pool } = fakePool({ reply: ' before the end', tokenMs: 50 }, { size: 1 });
  await pool.load();
  const events: GhostTextEvent[] = [];
  const options = { session: 's', speculate: false, events: ghostEvents((event) => events.push(event)) };
  const ghost = new GhostTextController(pool, { ...options, text: '' });
  const stop = ghost.subscribe(() => {});
  const seen: string[] = [];
  ghost.subscribe(() => seen.push(ghost.getSnapshot().suggestion));
  ghost.setOptions({ ...options, text: 'We meet before the end' });
  await vi.advanceTimersByTimeAsync(1000);
  expect(seen).toContain(' before the'); // on screen while it streamed
  expect(ghost.getSnapshot().suggestion).toBe(''); // whole, it repeats the text before the caret: taken away
  ghost.setOptions({ ...options, text: 'We meet before the end.' });
  await vi.advanceTimersByTimeAsync(1000);
  stop();
  ghost.dispose();
  const first = events.filter((event) => event.suggestion === 1);
  expect(first).toMatchObject([{ type: 'shown', characters: ' before the'.length, wholeMs: null }, { type: 'superseded' }]);
  // The next request's suggestion is number 2 (whole after the '.', ended by dispose), and no number was spent on nothing.
  expect(events.map((event) => [event.suggestion, event.type])).toEqual([
    [1, 'shown'],
    [1, 'superseded'],
    [2, 'shown'],
    [2, 'superseded'],
  ]);
});
