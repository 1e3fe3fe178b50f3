import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PoolInspector } from '../src/index.js';
import { laneRows } from '../src/inspector/core/laneRows.js';
import type { InspectedJob } from '../src/core.js';
import { advance, describeEachReactMode, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const ask = (id: string, extra: object = {}) => ({
  id,
  task: id,
  params: { messages: [{ role: 'user' as const, content: 'x' }] },
  ...extra,
});
const engineRows = () =>
  within(screen.getByRole('table', { name: 'Engines' }))
    .getAllByRole('row')
    .slice(1);
const rowsOfLanes = () => [...document.querySelectorAll('.inkling-lane[data-lanes] .inkling-lane-row')] as HTMLElement[];
const blocks = (row: HTMLElement) => [...row.querySelectorAll('.inkling-lane-job')].map((block) => (block as HTMLElement).dataset.priority);

describeEachReactMode('EngineLanes on an engine of several lanes', (mode) => {
  it('shows one engine with a line per lane: the jobs that run side by side, and how many lanes are taken', async () => {
    const { pool } = fakePool({ reply: 'one two three four five six', tokenMs: 50, concurrency: 4 });
    await pool.load();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      for (const id of ['translate', 'actions']) void pool.submit(ask(id));
      void pool.submit(ask('ghost', { priority: 'interactive' }));
    });
    await advance(60);
    expect(engineRows()).toHaveLength(1);
    expect(engineRows()[0]!.textContent).toContain('3 of 4 lanes, 1 kept for interactive work');
    const rows = rowsOfLanes();
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => blocks(row).length)).toEqual([1, 1, 1, 0]);
    expect(rows.flatMap(blocks).toSorted()).toEqual(['interactive', 'normal', 'normal']);
    await settle();
    // Later jobs take the lines their lanes freed: still four lines, jobs one after another on each.
    act(() => {
      void pool.submit(ask('next'));
    });
    await settle();
    expect(rowsOfLanes()).toHaveLength(4);
    expect(rowsOfLanes().reduce((n, row) => n + blocks(row).length, 0)).toBe(4);
  });

  it('keeps the single track of a one-lane engine, with no lane count', async () => {
    const { pool } = fakePool({ reply: 'one two', tokenMs: 50 });
    await pool.load();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit(ask('a'));
    });
    await advance(10);
    expect(document.querySelector('.inkling-lane[data-lanes]')).toBeNull();
    expect(engineRows()[0]!.textContent).not.toContain('lanes');
    await settle();
  });
});

const job = (id: string, startedAt: number, endAt: number, live = false) => ({ id, startedAt, endAt, live }) as InspectedJob;
const from = (j: InspectedJob) => j.startedAt!;

it('laneRows puts each job on the first line free at its start, and overlaps beyond the lanes on the line that frees first', () => {
  const rows = laneRows([job('a', 0, 10), job('b', 1, 5), job('c', 5, 8), job('d', 6, 9), job('e', 10, 12)], 2, from);
  expect(rows.map((row) => row.map((j) => j.id))).toEqual([
    ['a', 'e'],
    ['b', 'c', 'd'],
  ]);
  // A live job keeps its line however late the inspection: the next job goes to another.
  const live = laneRows([job('a', 0, 0, true), job('b', 0, 0, true)], 2, from);
  expect(live.map((row) => row.map((j) => j.id))).toEqual([['a'], ['b']]);
  expect(laneRows([], 3, from)).toEqual([[], [], []]);
});
