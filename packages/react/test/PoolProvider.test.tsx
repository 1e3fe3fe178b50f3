import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PoolProvider, usePool, usePoolStatus } from '../src/index.js';
import { useInklingContext } from '../src/base/poolContext.js';
import { advance, describeEachReactMode, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function Orphan() {
  usePool();
  return null;
}

function Phase() {
  return <p>{usePoolStatus().phase}</p>;
}

describeEachReactMode('PoolProvider', (mode) => {
  it('loads the model once on mount', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 100 });
    renderWithPool(<Phase />, pool, mode);
    await advance(0); // the pool tells its listeners a microtask later
    expect(screen.getByText('loading')).toBeTruthy();
    await settle();
    expect(screen.getByText('ready')).toBeTruthy();
    expect(createEngine.builds.get(0)).toBe(1);
  });

  it('loads nothing with load={false}, and nothing at all during render', async () => {
    const { pool, createEngine } = fakePool();
    renderWithPool(<Phase />, pool, mode, { load: false });
    await settle();
    expect(screen.getByText('idle')).toBeTruthy();
    expect(createEngine.builds.size).toBe(0);
  });

  it('unloads the engines it loaded a while after it unmounts, and leaves no listener', async () => {
    const { pool, createEngine, listeners } = fakePool();
    const view = renderWithPool(<Phase />, pool, mode, { unloadDelayMs: 300 });
    await settle();
    expect(listeners.active).toBe(1);
    view.unmount();
    expect(listeners.active).toBe(0);
    await advance(299);
    expect(pool.getSnapshot().phase).toBe('ready');
    await advance(1);
    expect(pool.getSnapshot().phase).toBe('idle');
    expect(createEngine.engines[0]?.unloaded).toBe(true);
  });

  it('shares one load between providers of the same pool', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 50 });
    render(
      <PoolProvider pool={pool}>
        <PoolProvider pool={pool}>
          <Phase />
        </PoolProvider>
      </PoolProvider>,
      { reactStrictMode: mode.reactStrictMode },
    );
    await settle();
    expect(createEngine.builds.get(0)).toBe(1);
  });

  it('throws, outside a provider, an error that says to add <PoolProvider>', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Orphan />, { reactStrictMode: mode.reactStrictMode })).toThrow(/Wrap your tree in <PoolProvider pool=\{pool\}>/);
  });

  it('caches in the queryClient prop, else the nearest QueryClientProvider, else a private client', () => {
    const { pool } = fakePool();
    const nearest = new QueryClient();
    const given = new QueryClient();
    const seen: QueryClient[] = [];
    function Spy() {
      seen.push(useInklingContext('test').queryClient);
      return null;
    }
    const strict = { reactStrictMode: mode.reactStrictMode };
    render(
      <QueryClientProvider client={nearest}>
        <PoolProvider pool={pool} load={false}>
          <Spy />
        </PoolProvider>
      </QueryClientProvider>,
      strict,
    );
    expect(seen.at(-1)).toBe(nearest);
    render(
      <QueryClientProvider client={nearest}>
        <PoolProvider pool={pool} load={false} queryClient={given}>
          <Spy />
        </PoolProvider>
      </QueryClientProvider>,
      strict,
    );
    expect(seen.at(-1)).toBe(given);
    render(
      <PoolProvider pool={pool} load={false}>
        <Spy />
      </PoolProvider>,
      strict,
    );
    expect(seen.at(-1)).toBeInstanceOf(QueryClient);
    expect([nearest, given]).not.toContain(seen.at(-1));
  });

  it('keys caches by the modelId prop, else by the pool', () => {
    const { pool } = fakePool();
    const ids: string[] = [];
    function Spy() {
      ids.push(useInklingContext('test').modelId);
      return null;
    }
    render(
      <PoolProvider pool={pool} load={false} modelId="qwen-1.5b">
        <Spy />
      </PoolProvider>,
      { reactStrictMode: mode.reactStrictMode },
    );
    render(
      <PoolProvider pool={pool} load={false}>
        <Spy />
      </PoolProvider>,
      { reactStrictMode: mode.reactStrictMode },
    );
    expect(ids[0]).toBe('qwen-1.5b');
    expect(ids.at(-1)).toMatch(/^pool-\d+$/);
  });
});
