import { GhostTextarea, ModelLoadProgress, PoolInspector, type StreamingChatCompletionRequest, TranslateList } from '@inkling/react';
import { simulatedReply } from '@inkling/react/testing';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from './support/PoolReady.js';
import { PATIENCE, modelReady } from './support/playHelpers.js';
import { NOTES } from './support/sampleText.js';

const meta = {
  title: 'Components/TranslateList',
  component: TranslateList,
  args: { items: NOTES.slice(0, 6), to: 'fr', task: 'notes' },
  argTypes: { to: { control: 'select', options: ['fr', 'es', 'de', 'ja'] } },
  parameters: { inkling: { engine: { loadMs: 300, tokenMs: 40 } } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 760 }}>
        <PoolReady />
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof TranslateList>;

export default meta;
type Story = StoryObj<typeof meta>;

const statuses = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll<HTMLElement>('tbody tr')].map((row) => row.dataset.status);

/** Not started: waits for Translate. */
export const Idle: Story = {
  args: { enabled: false },
  play: async ({ canvas, canvasElement }) => {
    await modelReady(canvasElement);
    await expect(statuses(canvasElement).every((s) => s === 'queued')).toBe(true);
    await expect(canvas.getByRole('button', { name: 'Translate' })).toBeEnabled();
  },
};

/** The model is still loading: every item waits. */
export const LoadingModel: Story = {
  parameters: { inkling: { engine: { loadMs: 600_000 } } },
  render: (args) => (
    <div style={{ display: 'grid', gap: 12 }}>
      <ModelLoadProgress />
      <TranslateList {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await expect(statuses(canvasElement).every((s) => s === 'queued')).toBe(true);
  },
};

/** Items stream in one by one; the running one shows its partial text. */
export const Translating: Story = {
  parameters: { inkling: { engine: { loadMs: 200, tokenMs: 250 } } },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(statuses(canvasElement)).toContain('streaming'), PATIENCE);
  },
};

/** Every item done. */
export const Done: Story = {
  parameters: { inkling: { engine: { loadMs: 100, tokenMs: 5, prefillMs: 10 } } },
  play: async ({ canvas, canvasElement }) => {
    await waitFor(() => expect(statuses(canvasElement).every((s) => s === 'done')).toBe(true), PATIENCE);
    await expect(canvas.getByText('6 of 6 translated', { selector: '.inkling-translate-progress-label' })).toBeInTheDocument();
    await expect(canvasElement.querySelector('[data-status="done"] td + td')).toHaveTextContent('Bon matin, équipe.');
  },
};

/** Cancel stops what is left; Retry picks it up again. */
export const CancelAndRetry: Story = {
  parameters: { inkling: { engine: { loadMs: 100, tokenMs: 120 } } },
  play: async ({ canvas, canvasElement, userEvent }) => {
    await waitFor(() => expect(statuses(canvasElement)).toContain('streaming'), PATIENCE);
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel' }));
    await expect(statuses(canvasElement)).toContain('cancelled');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(statuses(canvasElement)).toContain('streaming'), PATIENCE);
  },
};

/** One item fails; it says why, and Retry is offered. */
export const ItemError: Story = {
  args: { items: [...NOTES.slice(0, 3), 'This one breaks the engine.'] },
  parameters: {
    inkling: {
      engine: {
        loadMs: 100,
        tokenMs: 10,
        reply: (request: StreamingChatCompletionRequest) => {
          if (String(request.messages.at(-1)?.content).includes('breaks')) throw new Error('Simulated engine failure on this item');
          return simulatedReply(request);
        },
      },
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await waitFor(() => expect(statuses(canvasElement)).toEqual(['done', 'done', 'done', 'error']), PATIENCE);
    await expect(canvas.getByText(/Simulated engine failure/)).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeEnabled();
  },
};

/** Ghost text cuts in on the only engine: the running item is preempted and starts over. */
export const Preempted: Story = {
  args: { items: NOTES },
  parameters: { inkling: { engine: { loadMs: 100, tokenMs: 60 } } },
  render: (args) => (
    <div style={{ display: 'grid', gap: 12 }}>
      <GhostTextarea aria-label="Note" rows={2} />
      <TranslateList {...args} />
      <PoolInspector maxJobs={6} />
    </div>
  ),
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    await waitFor(() => expect(statuses(canvasElement)).toContain('streaming'), PATIENCE);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Note' }), 'Thanks for the');
    await waitFor(
      () =>
        expect(canvasElement.querySelector('.inkling-inspector-counts [data-outcome="preempted"]')).not.toHaveAttribute('data-count', '0'),
      PATIENCE,
    );
  },
};

function noWebGPU(): Error {
  const error = new Error('navigator.gpu is missing: this browser has no WebGPU.');
  error.name = 'WebGPUUnavailableError';
  // What failed, as @inkling/webllm's error says it: the advice goes by it.
  return Object.assign(error, { kind: 'no-device', device: 'gpu' });
}

/** No WebGPU: nothing can run; the load error says what to do. */
export const NoWebGPU: Story = {
  parameters: { inkling: { engine: { loadMs: 100, failLoad: noWebGPU } } },
  render: (args) => (
    <div style={{ display: 'grid', gap: 12 }}>
      <ModelLoadProgress />
      <TranslateList {...args} />
    </div>
  ),
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent(/no WebGPU/), PATIENCE);
  },
};
