import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useMemo } from 'react';
import { GhostFigures, GhostTextarea, type GhostTextEvent, ghostEvents, useGhostFigures } from '../../src/index.js';
import { advance, describeEachReactMode, fakePool, renderWithPool } from '../utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function beforeOf(request: StreamingChatCompletionRequest): string {
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(request.messages.at(-1)?.content))?.[1] ?? '';
}

/** A textarea and the figures of its events. */
function Editor() {
  const figures = useMemo(() => new GhostFigures(), []);
  const [set] = useGhostFigures(figures);
  return (
    <>
      <GhostTextarea aria-label="Note" speculate={false} events={ghostEvents(figures.record)} />
      <output>{set ? `${set.shown} shown, ${set.accepted} accepted, ${set.acceptedCharacters} characters` : 'none'}</output>
    </>
  );
}

describeEachReactMode('GhostTextarea events and the browser’s own suggestions', (mode) => {
  it('reports a suggestion shown then accepted with Tab, once each, and keeps the browser’s writing suggestions off', async () => {
    const { pool } = fakePool({ reply: (request) => (beforeOf(request).endsWith('fox') ? ' jumps' : ' and more'), tokenMs: 10 });
    await pool.load();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const events: GhostTextEvent[] = [];
    renderWithPool(<GhostTextarea aria-label="Note" speculate={false} events={ghostEvents((event) => events.push(event))} />, pool, mode);
    const textarea = screen.getByLabelText<HTMLTextAreaElement>('Note');
    expect(textarea.getAttribute('writingsuggestions')).toBe('false');
    await user.type(textarea, 'The fox');
    await advance(1_000);
    await user.keyboard('{Tab}');
    await advance(10);
    expect(textarea.value).toBe('The fox jumps');
    // The next suggestion is asked at once after a Tab (no debounce).
    expect(events.map((event) => [event.type, event.suggestion])).toEqual([
      ['shown', 1],
      ['accepted', 1],
      ['shown', 2],
    ]);
    expect(events[0]).toMatchObject({ source: 'engine', characters: 6, promptBuilder: 'defaultGhostParams' });
    expect(events[1]).toMatchObject({ how: 'all', characters: 6 });
    expect(events.some((event) => 'text' in event)).toBe(false);
  });

  it('useGhostFigures renders the figures of the events a GhostFigures records', async () => {
    const { pool } = fakePool({ reply: () => ' jumps', tokenMs: 10 });
    await pool.load();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithPool(<Editor />, pool, mode);
    await user.type(screen.getByLabelText('Note'), 'The fox');
    await advance(1_000);
    await user.keyboard('{Tab}');
    await advance(10);
    expect(document.querySelector('output')?.textContent).toBe('1 shown, 1 accepted, 6 characters');
  });

  it('lets the browser’s writing suggestions back on with writingSuggestions', async () => {
    const { pool } = fakePool();
    await pool.load();
    renderWithPool(<GhostTextarea aria-label="Note" writingSuggestions />, pool, mode);
    expect(screen.getByLabelText('Note').getAttribute('writingsuggestions')).toBe('true');
  });
});
