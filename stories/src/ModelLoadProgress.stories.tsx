import { type CreateEngine, type ErrorDevice, type ErrorKind, ModelLoadProgress } from '@inkling/react';
import { simulatedEngines } from '@inkling/react/testing';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { PATIENCE } from './support/playHelpers.js';

const meta = {
  title: 'Components/ModelLoadProgress',
  component: ModelLoadProgress,
  parameters: { inkling: { engine: { loadMs: 1500 } } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 480 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ModelLoadProgress>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An engine's load error as the adapters throw it: its class name, and what failed (advice goes by `kind` and `device`). */
function named(name: string, message: string, failure: { kind?: ErrorKind; device?: ErrorDevice } = {}): () => Error {
  return () => {
    const error = Object.assign(new Error(message), failure);
    error.name = name;
    return error;
  };
}

/** A load that reports bytes and stops at `progress`, as a real download would, until unloaded. */
function downloadAt(progress: number): () => CreateEngine {
  return () => (_index, onProgress, options) => {
    onProgress({ progress, text: 'Fetching param cache[12/38]', timeElapsed: 18, loadedBytes: progress * 1.05e9, totalBytes: 1.05e9 });
    return new Promise((_resolve, reject) =>
      options?.signal.addEventListener('abort', () => reject(new DOMException('Load cancelled', 'AbortError'))),
    );
  };
}

/** Not loaded yet: a Load button. */
export const Idle: Story = {
  parameters: { inkling: { load: false, engine: { loadMs: 300 } } },
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Load model' }));
    await waitFor(() => expect(canvas.getByText('Model ready')).toBeInTheDocument(), PATIENCE);
  },
};

/** Loading: progress with the phase and the time left. */
export const Loading: Story = {
  parameters: { inkling: { engine: { loadMs: 60_000 } } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('progressbar', { name: 'Model download' })).toBeInTheDocument();
  },
};

/** Downloading, with bytes and time left. */
export const Downloading: Story = {
  parameters: { inkling: { createEngine: downloadAt(0.42) } },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText(/441 MB of 1\.1 GB · about 25 s left/)).toBeInTheDocument(), PATIENCE);
    await expect(canvas.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
  },
};

/** Loaded. */
export const Ready: Story = {
  parameters: { inkling: { createEngine: () => simulatedEngines({ loadMs: 0 }) } },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText('Model ready')).toBeInTheDocument(), PATIENCE);
  },
};

/** No WebGPU: which browsers can, and Try again. */
export const NoWebGPU: Story = {
  parameters: {
    inkling: {
      engine: {
        loadMs: 200,
        failLoad: named('WebGPUUnavailableError', 'WebGPU is not available here: this browser has no WebGPU (navigator.gpu is missing).', {
          kind: 'no-device',
          device: 'gpu',
        }),
      },
    },
  },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent(/Chrome or Edge 113/), PATIENCE);
    await expect(canvas.getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
};

/** Out of GPU memory: smaller model, fewer engines. */
export const OutOfMemory: Story = {
  parameters: {
    inkling: {
      engine: {
        loadMs: 200,
        failLoad: named(
          'OutOfMemoryError',
          'The GPU ran out of memory loading "Llama-3.1-8B-Instruct-q4f16_1-MLC" (it needs about 5000 MB).',
          { kind: 'out-of-memory', device: 'gpu' },
        ),
      },
    },
  },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent(/ran out of memory/), PATIENCE);
  },
};

/** A model URL that fails: check the URL and CORS. */
export const ModelUrlFails: Story = {
  parameters: {
    inkling: {
      engine: {
        loadMs: 200,
        failLoad: named('ModelFetchError', 'fetching https://models.example.com/my-model/ndarray-cache.json failed (404 Not Found).', {
          kind: 'network',
          device: 'gpu',
        }),
      },
    },
  },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent(/could not be downloaded/), PATIENCE);
  },
};

/** An error it has no advice for: its own message. */
export const OtherError: Story = {
  parameters: { inkling: { engine: { loadMs: 200, failLoad: named('Error', 'The disk is full. Free some space and try again.') } } },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent(/disk is full/), PATIENCE);
  },
};
