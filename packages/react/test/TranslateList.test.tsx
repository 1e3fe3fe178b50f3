import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { TranslateList, useTranslateList } from '../src/index.js';
import { advance, describeEachReactMode, fakePool, renderHookWithPool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const ITEMS = ['Good morning', 'See you soon', 'Thank you'];
const reply = (request: StreamingChatCompletionRequest) => `fr ${String(request.messages.at(-1)?.content).toLowerCase()} ok`;

async function setup() {
  const made = fakePool({ reply, tokenMs: 20 });
  await made.pool.load();
  return { ...made, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

const rows = () => screen.getAllByRole('row').slice(1);
const statuses = () => rows().map((row) => row.dataset.status);
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describeEachReactMode('TranslateList', (mode) => {
  it('shows each source beside its translation, per-item status and a progress bar', async () => {
    const { pool } = await setup();
    renderWithPool(<TranslateList items={ITEMS} to="fr" />, pool, mode);
    await advance(0);
    expect(statuses()).toEqual(['queued', 'queued', 'queued']);
    expect(screen.getByRole('progressbar')).toMatchObject({ value: 0, max: 3 });
    await advance(50);
    expect(statuses()).toEqual(['streaming', 'queued', 'queued']);
    expect(within(rows()[0] as HTMLElement).getByText('Translating…')).toBeTruthy();
    await settle();
    expect(statuses()).toEqual(['done', 'done', 'done']);
    const cells = within(rows()[1] as HTMLElement).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual(['See you soon', 'fr see you soon ok', 'Done']);
    expect(cells[1]?.getAttribute('lang')).toBe('fr');
    expect(screen.getByRole('progressbar')).toMatchObject({ value: 3, max: 3 });
    expect(screen.getByText('3 of 3 translated', { selector: '.inkling-translate-progress-label' })).toBeTruthy();
    expect(screen.getByRole('table').closest('[data-status]')?.getAttribute('data-status')).toBe('done');
  });

  it('tells a screen reader politely once, at the end: "3 of 3 translated", not every row', async () => {
    const { pool } = await setup();
    renderWithPool(<TranslateList items={ITEMS} to="fr" />, pool, mode);
    const live = screen.getByRole('status');
    await advance(50);
    expect(live.textContent).toBe('');
    await advance(60);
    expect(statuses()).toContain('done');
    expect(statuses()).toContain('queued');
    expect(live.textContent).toBe('');
    await settle();
    expect(live.textContent).toBe('3 of 3 translated');
  });

  it('Cancel stops what is left; Retry translates it', async () => {
    const { pool, user } = await setup();
    renderWithPool(<TranslateList items={ITEMS} to="fr" />, pool, mode);
    await advance(0);
    expect(button('Retry').disabled).toBe(true);
    await user.click(button('Cancel'));
    expect(statuses()).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(button('Cancel').disabled).toBe(true);
    expect(button('Retry').disabled).toBe(false);
    await user.click(button('Retry'));
    await settle();
    expect(statuses()).toEqual(['done', 'done', 'done']);
    expect(button('Retry').disabled).toBe(true);
  });

  it('shows a failed item with its error, and Retry translates it', async () => {
    const { pool, user, createEngine } = await setup();
    createEngine.engines[0]?.failNext(new Error('tokenizer broke'));
    renderWithPool(<TranslateList items={ITEMS} to="fr" />, pool, mode);
    await settle();
    expect(statuses()).toEqual(['error', 'done', 'done']);
    expect(within(rows()[0] as HTMLElement).getByText(/tokenizer broke/)).toBeTruthy();
    await user.click(button('Retry'));
    await settle();
    expect(statuses()).toEqual(['done', 'done', 'done']);
  });

  it('waits for Translate when not enabled', async () => {
    const { pool, user } = await setup();
    renderWithPool(<TranslateList items={ITEMS} to="French" enabled={false} labels={{ start: 'Go' }} />, pool, mode);
    await settle();
    expect(statuses()).toEqual(['queued', 'queued', 'queued']);
    expect(rows()[0]?.querySelectorAll('[lang]')).toHaveLength(0); // a name is no language code
    await user.click(button('Go'));
    await settle();
    expect(statuses()).toEqual(['done', 'done', 'done']);
  });

  it('keeps each row object while its item does not change, so a memoized row does not render again', async () => {
    const { pool } = await setup();
    const items = ['one', 'two', 'three', 'four'];
    const { result } = renderHookWithPool(() => useTranslateList({ items, to: 'fr' }), pool, mode);
    await advance(0);
    const queued = result.current.rows;
    await advance(25); // the first item streams; the rest wait
    const streaming = result.current.rows;
    expect(streaming.map((r) => r.status)).toEqual(['streaming', 'queued', 'queued', 'queued']);
    expect(streaming[0]).not.toBe(queued[0]);
    expect(streaming.slice(1).every((row, i) => row === queued[i + 1])).toBe(true);
    await settle();
    const done = result.current.rows;
    expect(done.map((r) => r.text)).toEqual(['fr one ok', 'fr two ok', 'fr three ok', 'fr four ok']);
    expect(done.map((r) => r.rowProps['data-index'])).toEqual(['0', '1', '2', '3']);
  });
});
