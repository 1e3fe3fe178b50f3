import { InvalidOptionError } from '@inkling/scheduler';
import { render, within } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../../src/ghost/core/ghostTextController.js';
import { GhostTextarea, PoolProvider, defaultGhostParams, useGhostText } from '../../src/index.js';
import { fakePool, settle } from '../utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const NONSENSE = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '24'];

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

function Ghost({ maxTokens, renders, inline }: { maxTokens?: number; renders: { count: number }; inline?: boolean }) {
  renders.count += 1;
  const buildParams = inline ? (input: Parameters<typeof defaultGhostParams>[0]) => defaultGhostParams(input) : undefined;
  const ghost = useGhostText({ session: 's', text: 'Hello there', maxTokens, buildParams });
  return <output>{ghost.status}</output>;
}

it('GhostTextController rejects a maxTokens that is not a whole number of tokens, 1 or more, and keeps its state', async () => {
  const { pool } = fakePool();
  await pool.load();
  for (const bad of NONSENSE) {
    expect(() => new GhostTextController(pool, { session: 's', text: 'Hi', maxTokens: bad as number })).toThrow(InvalidOptionError);
  }
  const ghost = new GhostTextController(pool, { session: 's', text: '' });
  ghost.setOptions({ session: 's', text: 'Hello', debounceMs: 0 });
  const before = ghost.getSnapshot();
  for (const bad of NONSENSE) {
    expect(() => ghost.setOptions({ session: 's', text: 'Hello', maxTokens: bad as number })).toThrow(/"maxTokens" must be/);
  }
  expect(ghost.getSnapshot()).toBe(before);
  ghost.dispose();
});

it('useGhostText({ maxTokens: NaN }) and every other nonsense maxTokens is one typed error, rendered once, never a render loop', async () => {
  const { pool } = fakePool({ reply: () => ' there' });
  await pool.load();
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    for (const bad of NONSENSE) {
      const renders = { count: 0 };
      const view = render(
        <PoolProvider pool={pool} load={false}>
          <Boundary>
            <Ghost maxTokens={bad as number} renders={renders} />
          </Boundary>
        </PoolProvider>,
      );
      await settle();
      expect(within(view.container).getByRole('alert').textContent).toMatch(/^InvalidOptionError: useGhostText\(\) "maxTokens" must be/);
      expect(renders.count).toBeLessThan(5); // React's own retry of a throwing render, not a loop
      view.unmount();
    }
  } finally {
    quiet.mockRestore();
  }
});

it('a buildParams written inline (a new function each render) does not make the hook loop', async () => {
  const { pool } = fakePool({ reply: () => ' friend' });
  await pool.load();
  const renders = { count: 0 };
  const view = render(
    <PoolProvider pool={pool} load={false}>
      <Ghost renders={renders} inline />
    </PoolProvider>,
  );
  await settle();
  expect(view.container.textContent).toBe('done');
  const settled = renders.count;
  await settle();
  expect(renders.count).toBe(settled);
  expect(settled).toBeLessThan(10);
});

it('<GhostTextarea maxTokens={NaN}> names the prop', async () => {
  const { pool } = fakePool();
  await pool.load();
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const view = render(
      <PoolProvider pool={pool} load={false}>
        <Boundary>
          <GhostTextarea aria-label="Note" maxTokens={Number.NaN} />
        </Boundary>
      </PoolProvider>,
    );
    await settle();
    expect(within(view.container).getByRole('alert').textContent).toMatch(/InvalidOptionError: useGhostText\(\) "maxTokens"/);
    view.unmount();
  } finally {
    quiet.mockRestore();
  }
});
