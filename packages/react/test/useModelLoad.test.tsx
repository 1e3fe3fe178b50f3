import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useCompletion, useModelLoad, usePoolStatus } from '../src/index.js';
import { words } from './core/helpers.js';
import { advance, describeEachReactMode, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

let loadRenders = 0;

function Progress() {
  loadRenders += 1;
  const { status, progress, text, error, load } = useModelLoad();
  return (
    <div data-testid="load" data-status={status} data-progress={progress}>
      {text}
      {error && (
        <button type="button" onClick={() => void load()}>
          Retry: {error.message}
        </button>
      )}
    </div>
  );
}

function Jobs() {
  const { running, queued } = usePoolStatus();
  const { complete } = useCompletion();
  return (
    <button type="button" onClick={() => void complete('go')}>
      {running} running, {queued} queued
    </button>
  );
}

const load = () => screen.getByTestId('load');

describeEachReactMode('useModelLoad and usePoolStatus', (mode) => {
  it('reports load progress from 0 to 1', async () => {
    const { pool } = fakePool({ loadMs: 1000 });
    renderWithPool(<Progress />, pool, mode);
    await advance(0);
    expect(load().dataset).toMatchObject({ status: 'loading', progress: '0' });
    await advance(500);
    expect(load().dataset).toMatchObject({ status: 'loading', progress: '0.5' });
    expect(load().textContent).toBe('Loading simulated model: 50%');
    await settle();
    expect(load().dataset).toMatchObject({ status: 'ready', progress: '1' });
  });

  it('shows a failed load as state, and load() tries again', async () => {
    const { pool } = fakePool({ failLoad: (_index, attempt) => (attempt === 1 ? new Error('WebGPU is not available') : undefined) });
    renderWithPool(<Progress />, pool, mode);
    await settle();
    expect(load().dataset.status).toBe('error');
    act(() => screen.getByRole('button').click());
    await settle();
    expect(load().dataset.status).toBe('ready');
  });

  it('does not re-render the progress for tokens streamed elsewhere; usePoolStatus does', async () => {
    const { pool } = fakePool({ reply: words(40), tokenMs: 10 });
    renderWithPool(
      <>
        <Progress />
        <Jobs />
      </>,
      pool,
      mode,
    );
    await settle();
    loadRenders = 0;
    act(() => screen.getByText(/running/).click());
    await advance(100);
    expect(screen.getByText('1 running, 0 queued')).toBeTruthy();
    await settle();
    expect(loadRenders).toBe(0);
  });
});
