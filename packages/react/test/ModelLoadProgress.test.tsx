import { type CreateEngine, EnginePool, type ErrorDevice, type ErrorKind, InklingError } from '@inkling/scheduler';
import { createFakeEngine } from '@inkling/scheduler/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { loadErrorAdvice } from '../src/core.js';
import { ModelLoadProgress } from '../src/index.js';
import { advance, describeEachReactMode, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function named(name: string, message: string, failure: { kind?: ErrorKind; device?: ErrorDevice } = {}): Error {
  const error = Object.assign(new Error(message), failure);
  error.name = name;
  return error;
}

class OutOfMemoryError extends InklingError {
  override name = 'OutOfMemoryError';
  override readonly kind = 'out-of-memory';
  override readonly device: ErrorDevice = 'gpu';
}

/** An engine whose load reports bytes, as a download would. */
const createEngine: CreateEngine = async (_index, onProgress) => {
  onProgress({ progress: 0.15, text: 'Fetching weights', timeElapsed: 3, loadedBytes: 120e6, totalBytes: 800e6 });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return createFakeEngine();
};

const root = () => document.querySelector<HTMLElement>('.inkling-model-load') as HTMLElement;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

describeEachReactMode('ModelLoadProgress', (mode) => {
  it('shows the load as a progress bar with the phase and the time left', async () => {
    const { pool } = fakePool({ loadMs: 10_000 });
    renderWithPool(<ModelLoadProgress />, pool, mode);
    await advance(5000);
    const bar = screen.getByRole('progressbar', { name: 'Model download' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(root().dataset.status).toBe('loading');
    expect(screen.getByText('Loading simulated model: 50%')).toBeTruthy();
    expect(screen.getByText('about 5 s left')).toBeTruthy();
    await settle();
    expect(root().dataset.status).toBe('ready');
    expect(screen.getByText('Model ready')).toBeTruthy();
  });

  it('shows bytes when the engine reports them', async () => {
    renderWithPool(<ModelLoadProgress />, new EnginePool({ createEngine }), mode);
    await advance(10);
    expect(screen.getByText('120 MB of 800 MB · about 15 s left')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('15%, 120 MB of 800 MB · about 15 s left');
  });

  it('says what to do when WebGPU is missing, and Try again loads', async () => {
    const { pool } = fakePool({
      failLoad: (_i, attempt) =>
        attempt === 1 ? named('WebGPUUnavailableError', 'navigator.gpu is missing', { kind: 'no-device', device: 'gpu' }) : undefined,
    });
    renderWithPool(<ModelLoadProgress />, pool, mode);
    await settle();
    expect(root().dataset.status).toBe('error');
    expect(screen.getByRole('alert').textContent).toMatch(/no WebGPU.*Chrome or Edge 113/);
    expect(screen.getByRole('alert').textContent).toContain('navigator.gpu is missing');
    await user().click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(root().dataset.status).toBe('ready');
  });

  it('says an error in one paragraph for a person, with the developer detail behind a closed Details', async () => {
    const { pool } = fakePool({ failLoad: () => named('WebGPUUnavailableError', 'navigator.gpu is missing') });
    renderWithPool(<ModelLoadProgress />, pool, mode);
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.querySelectorAll(':scope > p')).toHaveLength(1);
    const details = alert.querySelector('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Details');
    expect(details.textContent).toContain('WebGPUUnavailableError: navigator.gpu is missing');
    // The phase line is not a second message.
    expect(root().querySelector('.inkling-model-load-phase')).toBeNull();
    await user().click(screen.getByText('Details'));
    expect(details.open).toBe(true);
  });

  it('gives out-of-memory advice, and the message itself for an error it does not know', async () => {
    const { pool } = fakePool({ failLoad: () => new OutOfMemoryError('GPU memory exhausted loading the model') });
    renderWithPool(<ModelLoadProgress />, pool, mode);
    await settle();
    expect(screen.getByRole('alert').textContent).toMatch(/ran out of memory.*smaller model/);
    expect(loadErrorAdvice(named('SomethingElse', 'Disk on fire: unplug it.'))).toBe('Disk on fire: unplug it.');
    expect(loadErrorAdvice(named('EngineLoadError', 'x'))).toBe('x');
    expect(loadErrorAdvice(new InklingError('wrapped', { cause: named('ModelLoadError', 'fetch failed', { kind: 'network' }) }))).toMatch(
      /could not be downloaded.*URL/,
    );
  });

  it('offers a Load button while idle', async () => {
    const { pool } = fakePool({ loadMs: 100 });
    renderWithPool(<ModelLoadProgress />, pool, mode, { load: false });
    await settle();
    expect(root().dataset.status).toBe('idle');
    expect(screen.getByText('Model not loaded')).toBeTruthy();
    await user().click(screen.getByRole('button', { name: 'Load model' }));
    await settle();
    expect(root().dataset.status).toBe('ready');
  });
});
