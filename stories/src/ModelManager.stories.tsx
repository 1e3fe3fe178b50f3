import { browserAIModelStorage } from '@inkling/browser-ai';
import { createFakeBuiltInAI } from '@inkling/browser-ai/testing';
import { type ModelStorage, ModelManager, type StoredModel } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { PATIENCE } from './support/playHelpers.js';

/** A storage in memory for the catalogue (the real ones are `wllamaModelStorage()` and `webllmModelStorage()`). */
function memoryStorage(models: StoredModel[], persisted: boolean | undefined, grant = true): ModelStorage {
  let list = [...models];
  let kept = persisted;
  return {
    read: async () => ({ models: list, room: { usage: 560e6, quota: 4_000e6, free: 3_440e6 }, persisted: kept }),
    delete: async (model) => {
      list = list.filter((m) => m.model !== model);
    },
    deleteAll: async () => {
      list = [];
    },
    persist: async () => {
      kept = grant || kept;
      return grant;
    },
  };
}

const hf = 'https://huggingface.co/x/resolve/main/';
const SMOL: StoredModel = { model: `${hf}smollm2-360m-instruct-q8_0.gguf`, bytes: 386e6, totalBytes: 386e6, complete: true, lastUsed: 2 };
const QWEN: StoredModel = {
  model: `${hf}Qwen2.5-0.5B-Instruct-Q4_K_M.gguf`,
  bytes: 154e6,
  totalBytes: 398e6,
  complete: false,
  lastUsed: 1,
};
const BGE: StoredModel = { model: `${hf}bge-small-en-v1.5-q8_0.gguf`, bytes: 36.7e6, totalBytes: 36.7e6, complete: true, lastUsed: 0 };

const meta = {
  title: 'Components/ModelManager',
  component: ModelManager,
  // Needs no pool: a storage is all it reads.
  parameters: { inkling: { load: false } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 560 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ModelManager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Two whole models and a cut download, storage figures, not yet kept: Keep them asks the browser. */
export const Stored: Story = {
  args: { storage: memoryStorage([SMOL, QWEN, BGE], false) },
  play: async ({ canvas, userEvent }) => {
    await waitFor(() => expect(canvas.getAllByRole('listitem')).toHaveLength(3), PATIENCE);
    await expect(canvas.getByText('154 MB of 398 MB, partial')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Keep them' }));
    await waitFor(() => expect(canvas.getByText(/Kept: the browser will not clear them/)).toBeInTheDocument(), PATIENCE);
  },
};

/** Delete asks first; confirmed, the model leaves the list. */
export const DeleteWithConfirmation: Story = {
  args: { storage: memoryStorage([SMOL, QWEN], true) },
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete smollm2-360m-instruct-q8_0.gguf' }, PATIENCE));
    const dialog = canvas.getByRole('alertdialog', { name: 'Delete smollm2-360m-instruct-q8_0.gguf?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(canvas.getAllByRole('listitem')).toHaveLength(1), PATIENCE);
  },
};

/** Nothing stored yet. */
export const Empty: Story = {
  args: { storage: memoryStorage([], false) },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No models are stored on this device.', undefined, PATIENCE)).toBeInTheDocument();
  },
};

/** Persistence refused by the browser: it says the models may be cleared, and still offers to ask. */
export const PersistenceRefused: Story = {
  args: { storage: memoryStorage([SMOL], false, false) },
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Keep them' }, PATIENCE));
    await expect(canvas.getByText(/may clear them when space runs low/)).toBeInTheDocument();
  },
};

/**
 * The browser's own models (`browserAIModelStorage` over a fake of Chrome's APIs): the Prompt
 * API's model stored, a translation model downloading. The browser keeps their size to itself
 * and only the person can remove them, in the browser: no Delete, the place to do it instead.
 */
export const BrowserModels: Story = {
  args: {
    storage: browserAIModelStorage({
      globals: createFakeBuiltInAI({ prompt: 'available', translation: 'downloading', detector: 'unavailable' }).globals,
      translations: [{ from: 'en', to: 'de' }],
    }),
  },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getAllByRole('listitem')).toHaveLength(2), PATIENCE);
    await expect(canvas.getByText('Size decided by the browser')).toBeInTheDocument();
    await expect(canvas.queryByRole('button', { name: /Delete/ })).toBeNull();
  },
};

/** Another tab is downloading a model: no "0 B, partial", no Delete until it ends. */
export const DownloadingInAnotherTab: Story = {
  args: { storage: memoryStorage([SMOL, { ...QWEN, bytes: 0, busy: 'downloading' }], true) },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getAllByRole('listitem')).toHaveLength(2), PATIENCE);
    await expect(canvas.getByText('Downloading in this or another tab')).toBeInTheDocument();
    await expect(canvas.getByText('Can be deleted once that ends')).toBeInTheDocument();
    await expect(canvas.queryByRole('button', { name: /Delete Qwen/ })).toBeNull();
  },
};
