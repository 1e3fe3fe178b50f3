import type { EnginePool, EnginePoolOptions } from '@inkling/scheduler';
import { type FakeEnginesOptions, fakePool as sharedFakePool } from '@inkling/scheduler/testing';
import { type RenderHookResult, type RenderResult, act, render, renderHook } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { describe, vi } from 'vitest';
import { PoolProvider, type PoolProviderProps } from '../src/index.js';

/** One of the two ways every React suite runs. */
export interface ReactMode {
  readonly name: 'legacy' | 'strict';
  /** Whether to render inside `<StrictMode>`. */
  readonly reactStrictMode: boolean;
}

const MODES: readonly ReactMode[] = [
  { name: 'legacy', reactStrictMode: false },
  { name: 'strict', reactStrictMode: true },
];

/**
 * Runs a suite twice: without StrictMode and inside it (double render,
 * mount-unmount-mount), as `@xstate/react`'s test utils do.
 */
export function describeEachReactMode(title: string, suite: (mode: ReactMode) => void): void {
  describe.each(MODES)(`${title} ($name)`, (mode) => {
    suite(mode);
  });
}

/** A pool of fake engines, plus the factory that remembers them. */
export function fakePool(engine: FakeEnginesOptions = {}, pool: Partial<EnginePoolOptions> = {}) {
  const { pool: instance, createEngine } = sharedFakePool(engine, { size: 1, ...pool });
  return { pool: instance, createEngine, listeners: trackListeners(instance) };
}

export { engineCalls } from '@inkling/scheduler/testing';

/** Counts the pool's live subscriptions, so a test can see none is left behind. */
function trackListeners(pool: EnginePool): { readonly active: number } {
  let active = 0;
  const subscribe = pool.subscribe;
  vi.spyOn(pool, 'subscribe').mockImplementation((listener) => {
    active += 1;
    const unsubscribe = subscribe(listener);
    let done = false;
    return () => {
      if (!done) active -= 1;
      done = true;
      unsubscribe();
    };
  });
  return {
    get active() {
      return active;
    },
  };
}

type ProviderOptions = Omit<PoolProviderProps, 'children' | 'pool'>;

/** Renders `ui` under a `PoolProvider`, in the given mode. */
export function renderWithPool(ui: ReactElement, pool: EnginePool, mode: ReactMode, provider: ProviderOptions = {}): RenderResult {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PoolProvider pool={pool} {...provider}>
      {children}
    </PoolProvider>
  );
  return render(ui, { wrapper, reactStrictMode: mode.reactStrictMode });
}

/** Renders a hook under a `PoolProvider`, in the given mode. */
export function renderHookWithPool<Result, Props>(
  hook: (props: Props) => Result,
  pool: EnginePool,
  mode: ReactMode,
  options: { initialProps?: Props; provider?: ProviderOptions } = {},
): RenderHookResult<Result, Props> {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PoolProvider pool={pool} {...options.provider}>
      {children}
    </PoolProvider>
  );
  return renderHook(hook, { wrapper, reactStrictMode: mode.reactStrictMode, initialProps: options.initialProps as Props });
}

/** Advances fake time inside `act`, letting React commit what it caused. */
export async function advance(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** Runs every pending fake timer inside `act`. */
export async function settle(): Promise<void> {
  await act(() => vi.runAllTimersAsync());
}
