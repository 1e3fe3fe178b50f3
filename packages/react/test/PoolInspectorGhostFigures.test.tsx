import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { GhostTextEvent } from '../src/ghost/core/ghostTextEvent.js';
import { GhostFigures, PoolInspector } from '../src/index.js';
import { advance, describeEachReactMode, fakePool, renderWithPool } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const base = { session: 'notes', model: 'qwen', promptBuilder: 'defaultGhostParams' };
/** One suggestion shown (`characters`, after `firstGlyphMs`, from `source`), then kept (`kept` characters by Tab) or rejected. */
function suggestion(id: number, firstGlyphMs: number, source: 'engine' | 'cache', kept: number, labels = base): GhostTextEvent[] {
  const at = { ...labels, suggestion: id };
  return [
    { ...at, type: 'shown', source, characters: 10, firstGlyphMs, wholeMs: firstGlyphMs + 50 },
    kept ? { ...at, type: 'accepted', how: 'all', characters: kept } : { ...at, type: 'rejected', reason: 'typedOver', characters: 10 },
  ];
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describeEachReactMode('PoolInspector ghostFigures', (mode) => {
  it('shows no ghost table without ghostFigures, and an empty one before any suggestion', async () => {
    const { pool } = fakePool();
    await pool.load();
    const view = renderWithPool(<PoolInspector />, pool, mode);
    await advance(0);
    expect(screen.queryByRole('table', { name: 'Ghost text' })).toBeNull();
    view.rerender(<PoolInspector ghostFigures={new GhostFigures()} />);
    await advance(0);
    expect(within(screen.getByRole('table', { name: 'Ghost text' })).getByText('No suggestions yet')).toBeTruthy();
  });

  it('one row per model and prompt builder, live: acceptance by characters and suggestions, p50/p95, share without a call', async () => {
    const { pool } = fakePool();
    await pool.load();
    const figures = new GhostFigures();
    renderWithPool(<PoolInspector ghostFigures={figures} />, pool, mode);
    await advance(0);
    act(() => {
      // qwen: 4 shown, 40 characters; 2 kept (10 + 5 characters); first glyph 100, 200, 300, 0 (cache).
      for (const event of [
        ...suggestion(1, 100, 'engine', 10),
        ...suggestion(2, 200, 'engine', 0),
        ...suggestion(3, 300, 'engine', 5),
        ...suggestion(4, 0, 'cache', 0),
        ...suggestion(5, 1500, 'engine', 0, { ...base, promptBuilder: 'myPrompt' }),
      ]) {
        figures.record(event);
      }
    });
    await advance(0);
    const rows = within(screen.getByRole('table', { name: 'Ghost text' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map(cells)).toEqual([
      ['qwen', 'defaultGhostParams', '4', '38%', '50%', '100 ms', '300 ms', '25%'],
      ['qwen', 'myPrompt', '1', '0%', '0%', '1.5 s', '1.5 s', '0%'],
    ]);
    act(() => figures.reset());
    await advance(0);
    expect(within(screen.getByRole('table', { name: 'Ghost text' })).getByText('No suggestions yet')).toBeTruthy();
  });
});
