import { EngineLoadError, InklingError } from '@inkling/scheduler';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextarea, TranslateList } from '../src/index.js';
import { advance, describeEachReactMode, fakePool, renderWithPool } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A pool whose model download fails (a 404). */
async function failedPool() {
  const made = fakePool({ reply: 'never', failLoad: () => new Error('404 model not found') });
  await expect(made.pool.load()).rejects.toBeInstanceOf(EngineLoadError);
  return made;
}

const rows = () => screen.getAllByRole<HTMLTableRowElement>('row').slice(1);

describeEachReactMode('after a failed load', (mode) => {
  it('TranslateList ends every row with the load’s error instead of leaving it queued', async () => {
    const { pool } = await failedPool();
    renderWithPool(<TranslateList items={['Good morning', 'Thank you']} to="fr" />, pool, mode);
    await advance(0);
    expect(rows().map((row) => row.dataset.status)).toEqual(['error', 'error']);
    // A few words per row; the load's own message belongs where the model's state is shown.
    expect(rows().map((row) => row.cells[2]?.textContent)).toEqual(['FailedThe model did not load.', 'FailedThe model did not load.']);
    expect(screen.getByRole('table').closest('[data-status]')?.getAttribute('data-status')).toBe('error');
  });

  it('TranslateList says the model did not load, not each row’s own message, while the pool is in error', async () => {
    const made = fakePool({
      reply: 'never',
      failLoad: () => new InklingError('Could not reach the server at http://127.0.0.1:9/v1/models'),
    });
    await expect(made.pool.load()).rejects.toBeInstanceOf(InklingError);
    renderWithPool(<TranslateList items={['Good morning']} to="fr" />, made.pool, mode);
    await advance(0);
    expect(rows()[0]?.cells[2]?.textContent).toBe('FailedThe model did not load.');
    expect(screen.queryByText(/127\.0\.0\.1/)).toBeNull();
  });

  it('GhostTextarea says why there is no suggestion instead of waiting queued', async () => {
    const { pool } = await failedPool();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithPool(<GhostTextarea aria-label="Note" speculate={false} />, pool, mode);
    await user.type(screen.getByLabelText('Note'), 'The meeting');
    await advance(1000);
    const textarea = screen.getByLabelText<HTMLTextAreaElement>('Note');
    expect(textarea.dataset.state).toBe('error');
    const said = document.getElementById(textarea.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '');
    expect(said?.textContent).toMatch(/unavailable: The model could not be loaded/);
  });
});
