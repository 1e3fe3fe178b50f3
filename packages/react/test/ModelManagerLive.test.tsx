import { EnginePool, ModelInUseError, type ModelStorage, type StorageRoom, type StoredModel } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ModelManager } from '../src/index.js';
import { advance, describeEachReactMode, renderWithPool } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const URL_OF_SMOL = 'https://example.com/m/smollm2-360m-instruct-q8_0.gguf';
const stored = (extra: Partial<StoredModel> = {}): StoredModel => ({
  model: URL_OF_SMOL,
  bytes: 9e6,
  totalBytes: 9e6,
  complete: true,
  lastUsed: 1,
  ...extra,
});

/** A ModelStorage whose contents the test changes, as another tab or a download would. */
function liveStorage(room: StorageRoom = { usage: 420e6, quota: 2_000e6, free: 1_580e6 }) {
  const state = { models: [] as StoredModel[], busy: false };
  const storage: ModelStorage = {
    read: async () => ({ models: state.models, room, persisted: true }),
    delete: async (model) => {
      if (state.busy) throw new ModelInUseError(model);
      state.models = state.models.filter((m) => m.model !== model);
    },
    deleteAll: async () => {
      state.models = [];
    },
    persist: async () => true,
  };
  return { storage, state };
}

const rowText = () => document.querySelector<HTMLElement>(`[data-model="${URL_OF_SMOL}"]`)?.textContent ?? '';

describeEachReactMode('ModelManager, live', (mode) => {
  it('lists a model as soon as the pool’s load (its download) ends, without a reload', async () => {
    const { storage, state } = liveStorage();
    const createEngine = fakeEngines({ loadMs: 100 });
    const pool = new EnginePool({
      size: 1,
      createEngine: async (index, onProgress, options) => {
        const engine = await createEngine(index, onProgress, options);
        state.models = [stored()]; // the download wrote it
        return engine;
      },
    });
    renderWithPool(<ModelManager storage={storage} />, pool, mode, { load: false });
    await advance(0);
    expect(screen.getByText('No models are stored on this device.')).toBeTruthy();
    const loading = pool.load();
    await advance(100);
    await loading;
    await advance(0);
    expect(rowText()).toMatch(/9\.0 MB/);
    expect(screen.queryByText('No models are stored on this device.')).toBeNull();
  });

  it('shows another tab’s download as it goes, not "0 B of 9.0 MB, partial", and lists it when it ends', async () => {
    const { storage, state } = liveStorage();
    state.models = [stored({ bytes: 0, complete: false, busy: 'downloading' })];
    render(<ModelManager storage={storage} />, { reactStrictMode: mode.reactStrictMode });
    await advance(0);
    expect(rowText()).toMatch(/Downloading in this or another tab/);
    expect(rowText()).not.toMatch(/0 B|partial/);
    // No Delete while it downloads: it would be refused.
    expect(within(document.querySelector<HTMLElement>(`[data-model="${URL_OF_SMOL}"]`)!).queryByRole('button')).toBeNull();
    state.models = [stored({ bytes: 3e6, complete: false, busy: 'downloading' })];
    await advance(1000);
    expect(rowText()).toMatch(/Downloading: 3\.0 MB of 9\.0 MB/);
    state.models = [stored()];
    await advance(1000);
    expect(rowText()).toMatch(/9\.0 MB/);
    expect(rowText()).not.toMatch(/Downloading/);
    expect(within(document.querySelector<HTMLElement>(`[data-model="${URL_OF_SMOL}"]`)!).getByRole('button')).toBeTruthy();
  });

  it('answers a delete refused because a tab is using the model with what to do, not its URL or the pools', async () => {
    const { storage, state } = liveStorage();
    state.models = [stored()];
    state.busy = true;
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<ModelManager storage={storage} />, { reactStrictMode: mode.reactStrictMode });
    await advance(0);
    await user.click(screen.getByRole('button', { name: 'Delete smollm2-360m-instruct-q8_0.gguf' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await advance(0);
    const said = screen.getByRole('alert').textContent ?? '';
    expect(said).toMatch(
      /smollm2-360m-instruct-q8_0\.gguf is being downloaded or loaded, here or in another tab, so it was kept\. Delete it once that ends\./,
    );
    expect(said).not.toMatch(/https?:|unload|pool/);
  });

  it('does not show the free space Chrome makes up (usage + 10 GiB)', async () => {
    const usage = 420e6;
    const { storage } = liveStorage({ usage, quota: usage + 10 * 2 ** 30, free: 10 * 2 ** 30 });
    render(<ModelManager storage={storage} />, { reactStrictMode: mode.reactStrictMode });
    await advance(0);
    const room = document.querySelector('.inkling-model-manager-room')?.textContent ?? '';
    expect(room).toMatch(/used/);
    expect(room).not.toMatch(/free/);
  });
});
