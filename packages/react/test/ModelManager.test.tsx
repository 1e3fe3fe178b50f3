import { ModelInUseError, type ModelStorage, type StoredModel } from '@inkling/scheduler';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { expect, it } from 'vitest';
import { ModelManager } from '../src/index.js';
import { describeEachReactMode } from './utils.js';

/** A ModelStorage in memory (the real ones, wllama's and WebLLM's, run in the Chromium suite against this component too). */
function memoryStorage(models: StoredModel[], options: { persisted?: boolean; grant?: boolean; busy?: string } = {}) {
  let list = [...models];
  let persisted = options.persisted ?? false;
  const reads: number[] = [];
  const storage: ModelStorage = {
    read: async () => (reads.push(1), { models: list, room: { usage: 420e6, quota: 2_000e6, free: 1_580e6 }, persisted }),
    delete: async (model) => {
      if (model === options.busy) throw new ModelInUseError(model);
      list = list.filter((m) => m.model !== model);
    },
    deleteAll: async () => {
      list = list.filter((m) => m.model === options.busy);
      if (options.busy) throw new ModelInUseError(options.busy);
    },
    persist: async () => (persisted = options.grant ?? true),
  };
  return { storage, reads };
}

const SMOL: StoredModel = {
  model: 'https://example.com/m/smollm2-360m-instruct-q8_0.gguf',
  bytes: 386e6,
  totalBytes: 386e6,
  complete: true,
  lastUsed: 2,
};
const QWEN: StoredModel = {
  model: 'https://example.com/m/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf',
  bytes: 154e6,
  totalBytes: 398e6,
  complete: false,
  lastUsed: 1,
};
const root = () => document.querySelector<HTMLElement>('.inkling-model-manager')!;

describeEachReactMode('ModelManager', (mode) => {
  const show = (storage: ModelStorage) =>
    render(
      mode.reactStrictMode ? (
        <StrictMode>
          <ModelManager storage={storage} />
        </StrictMode>
      ) : (
        <ModelManager storage={storage} />
      ),
    );

  it('lists the stored models with their sizes, a partial one as partial, and the storage used and free', async () => {
    show(memoryStorage([SMOL, QWEN]).storage);
    await waitFor(() => expect(root().dataset.status).toBe('ready'));
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'smollm2-360m-instruct-q8_0.gguf 386 MB Delete',
      'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf 154 MB of 398 MB, partial Delete',
    ]);
    expect(items.map((li) => li.dataset.complete)).toEqual(['true', 'false']);
    expect(screen.getByText('420 MB used, 1.6 GB free')).toBeTruthy();
  });

  it('deletes a model only after the confirmation, and Cancel keeps it', async () => {
    const user = userEvent.setup();
    show(memoryStorage([SMOL, QWEN]).storage);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Delete smollm2-360m-instruct-q8_0.gguf' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete smollm2-360m-instruct-q8_0.gguf?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Delete smollm2-360m-instruct-q8_0.gguf' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('listitem').textContent).toContain('Qwen2.5');
  });

  it('Delete all asks, then empties the list', async () => {
    const user = userEvent.setup();
    show(memoryStorage([SMOL, QWEN]).storage);
    await user.click(await screen.findByRole('button', { name: 'Delete all' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete every stored model?' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('No models are stored on this device.')).toBeTruthy();
  });

  it('a model in use is not deleted: the list keeps it and says why', async () => {
    const user = userEvent.setup();
    show(memoryStorage([SMOL], { busy: SMOL.model }).storage);
    await user.click(await screen.findByRole('button', { name: 'Delete smollm2-360m-instruct-q8_0.gguf' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/being downloaded or loaded/);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(root().dataset.status).toBe('error');
  });

  it('a model the browser keeps: its label, "Size decided by the browser", where to manage it instead of Delete, and no Delete all for it', async () => {
    const builtIn: StoredModel = {
      model: 'LanguageModel',
      label: "Chrome's built-in model (Prompt API)",
      bytes: undefined,
      totalBytes: undefined,
      complete: true,
      lastUsed: undefined,
      cannotDelete: 'Kept by the browser for every site; remove it in the browser (chrome://on-device-internals).',
    };
    const downloading: StoredModel = { ...builtIn, model: 'LanguageDetector', label: 'Detector', complete: false };
    show(memoryStorage([builtIn, downloading, SMOL]).storage);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      "Chrome's built-in model (Prompt API) Size decided by the browser Kept by the browser for every site; remove it in the browser (chrome://on-device-internals).",
      'Detector Being downloaded by the browser Kept by the browser for every site; remove it in the browser (chrome://on-device-internals).',
      'smollm2-360m-instruct-q8_0.gguf 386 MB Delete',
    ]);
    // One deletable model: its own Delete, no Delete all.
    expect(screen.getAllByRole('button', { name: /Delete/ })).toHaveLength(1);
  });

  it('reflects persistence and asks for it: granted, it says so; refused, it still offers', async () => {
    const user = userEvent.setup();
    const { unmount } = show(memoryStorage([SMOL]).storage);
    await waitFor(() => expect(root().dataset.persisted).toBe('false'));
    await user.click(screen.getByRole('button', { name: 'Keep them' }));
    await waitFor(() => expect(root().dataset.persisted).toBe('true'));
    expect(screen.getByText(/Kept: the browser will not clear them/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep them' })).toBeNull();
    unmount();
    show(memoryStorage([SMOL], { grant: false }).storage);
    await user.click(await screen.findByRole('button', { name: 'Keep them' }));
    expect(root().dataset.persisted).toBe('false');
    expect(screen.getByRole('button', { name: 'Keep them' })).toBeTruthy();
  });
});

it('reads the storage once per mount, StrictMode included', async () => {
  const { storage, reads } = memoryStorage([SMOL]);
  render(
    <StrictMode>
      <ModelManager storage={storage} />
    </StrictMode>,
  );
  await screen.findByRole('listitem');
  expect(reads).toHaveLength(1);
});
