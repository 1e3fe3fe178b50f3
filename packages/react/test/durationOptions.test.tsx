import { InvalidOptionError } from '@inkling/scheduler';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../src/ghost/core/ghostTextController.js';
import { retainPool } from '../src/base/core/poolLease.js';
import { GhostTextarea, PoolProvider, usePoolInspector } from '../src/index.js';
import { advance, describeEachReactMode, fakePool, renderHookWithPool, renderWithPool } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const BAD = [-1, Number.NaN, 2 ** 31, Number.NEGATIVE_INFINITY, '100'];

class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    return error ? <p role="alert">{`${(error as Error).name}: ${(error as Error).message}`}</p> : this.props.children;
  }
}

function Inspector({ tickMs }: { tickMs: number }) {
  usePoolInspector({ tickMs });
  return null;
}

/** Renders `ui` and returns what the nearest error boundary caught, or `null`. */
function caught(ui: ReactNode): string | null {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const view = render(<Boundary>{ui}</Boundary>);
    // Its own container: a GhostTextarea rendered before has an (empty) alert region too.
    const text = within(view.container).queryByRole('alert')?.textContent ?? null;
    view.unmount();
    return text;
  } finally {
    quiet.mockRestore();
  }
}

it('retainPool() rejects an unloadDelayMs a timer cannot honour, before holding the pool', () => {
  const { pool } = fakePool();
  for (const bad of BAD) {
    expect(() => retainPool(pool, { unloadDelayMs: bad as number })).toThrow(InvalidOptionError);
    expect(() => retainPool(pool, { unloadDelayMs: bad as number })).toThrow(/unloadDelayMs/);
  }
  expect(pool.getSnapshot().phase).toBe('idle');
});

it('<PoolProvider> names unloadDelayMs when it is not a usable duration', () => {
  const { pool } = fakePool();
  for (const bad of BAD) {
    expect(caught(<PoolProvider pool={pool} unloadDelayMs={bad as number} />)).toMatch(
      /^InvalidOptionError: <PoolProvider> "unloadDelayMs" must be/,
    );
  }
});

it('GhostTextController rejects a bad debounceMs (Infinity too: never asking is enabled: false) and keeps its state', async () => {
  const { pool } = fakePool();
  await pool.load();
  for (const bad of [...BAD, Number.POSITIVE_INFINITY]) {
    expect(() => new GhostTextController(pool, { session: 's', text: 'Hi', debounceMs: bad as number })).toThrow(InvalidOptionError);
  }
  const ghost = new GhostTextController(pool, { session: 's', text: '' });
  ghost.setOptions({ session: 's', text: 'Hello', debounceMs: 0 });
  const before = ghost.getSnapshot();
  expect(before.status).toBe('queued');
  expect(() => ghost.setOptions({ session: 's', text: 'Hello there', debounceMs: 2 ** 31 })).toThrow(/"debounceMs"/);
  expect(ghost.getSnapshot()).toBe(before);
  ghost.dispose();
});

describeEachReactMode('duration props', (mode) => {
  it('announceDelayMs={Infinity} never announces, and a bad one names the prop', async () => {
    const { pool } = fakePool({ reply: () => ' jumps', tokenMs: 10 });
    await pool.load();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithPool(<GhostTextarea aria-label="Note" announceDelayMs={Number.POSITIVE_INFINITY} />, pool, mode);
    await user.type(screen.getByLabelText('Note'), 'The fox');
    await advance(5_000);
    expect(document.querySelector('[data-inkling-ghost]')?.textContent).toBe(' jumps');
    expect(screen.getByRole('status').textContent).toBe('');
    expect(
      caught(
        <PoolProvider pool={pool} load={false}>
          <GhostTextarea aria-label="x" announceDelayMs={-5} />
        </PoolProvider>,
      ),
    ).toMatch(/InvalidOptionError: <GhostTextarea> "announceDelayMs"/);
  });

  it('usePoolInspector tickMs={Infinity} never ticks while a job runs', async () => {
    const { pool } = fakePool({ tokenMs: 100, reply: 'a b c d e f' });
    await pool.load();
    const now = vi.fn(() => 0);
    const { result } = renderHookWithPool(() => usePoolInspector({ now, tickMs: Number.POSITIVE_INFINITY }), pool, mode, {
      provider: { load: false },
    });
    void pool.submit({ params: { messages: [{ role: 'user', content: 'go' }] } });
    await advance(50);
    expect(result.current.status.running).toBe(1);
    const calls = now.mock.calls.length;
    await advance(300);
    expect(now.mock.calls.length).toBe(calls);
  });

  it('usePoolInspector names a bad tickMs', () => {
    const { pool } = fakePool();
    for (const bad of BAD) {
      expect(
        caught(
          <PoolProvider pool={pool} load={false}>
            <Inspector tickMs={bad as number} />
          </PoolProvider>,
        ),
      ).toMatch(/InvalidOptionError: usePoolInspector\(\) "tickMs"/);
    }
  });
});
