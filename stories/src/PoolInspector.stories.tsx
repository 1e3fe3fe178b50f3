import { PoolInspector, type StreamingChatCompletionRequest } from '@inkling/react';
import { simulatedReply } from '@inkling/react/testing';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { JobDriver, job } from './support/JobDriver.js';
import { PATIENCE } from './support/playHelpers.js';

const meta = {
  title: 'Components/PoolInspector',
  component: PoolInspector,
  parameters: { inkling: { engine: { loadMs: 300, tokenMs: 40 } } },
} satisfies Meta<typeof PoolInspector>;

export default meta;
type Story = StoryObj<typeof meta>;

const outcome = (canvasElement: HTMLElement, name: string) => canvasElement.querySelector(`.inkling-jobs tr[data-outcome="${name}"]`);

const BATCH = [0, 1, 2, 3, 4].map((i) =>
  job(0, { id: `page-${i + 1}`, task: 'translate-page', preemptible: true, prompt: 'Translate the page.' }),
);

/** A loaded pool with nothing to do. */
export const Idle: Story = {
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText('No jobs yet')).toBeInTheDocument(), PATIENCE);
  },
};

/** Loading the model: no engine yet. */
export const LoadingModel: Story = {
  parameters: { inkling: { engine: { loadMs: 600_000 } } },
  play: async ({ canvas }) => {
    // The engine's slot is there from the start, not loaded yet.
    await waitFor(() => expect(canvas.getByText('not loaded')).toBeInTheDocument(), PATIENCE);
  },
};

const BUSY = [
  ...BATCH,
  job(100, { id: 'index-1', task: 'index-notes', priority: 'low' }),
  job(150, { id: 'summary', task: 'summary', priority: 'high' }),
];

/** A batch running, more queued in several bands. */
export const Busy: Story = {
  render: (args) => (
    <>
      <JobDriver script={BUSY} />
      <PoolInspector {...args} />
    </>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector('.inkling-queues [data-priority="normal"][data-count="4"]')).not.toBeNull(),
      PATIENCE,
    );
  },
};

const PREEMPTION = [...BATCH, job(500, { id: 'ghost-1', session: 'editor', priority: 'interactive', prompt: 'Hi' })];

/** An interactive job on a busy single engine preempts the running batch item. */
export const Preempted: Story = {
  render: (args) => (
    <>
      <JobDriver script={PREEMPTION} />
      <PoolInspector {...args} />
    </>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(outcome(canvasElement, 'preempted')).not.toBeNull(), PATIENCE);
    await expect(canvasElement.querySelector('.inkling-inspector-counts [data-outcome="preempted"]')).toHaveTextContent('1 preempted');
  },
};

const SUPERSESSION = [0, 150, 300, 450].map((at, i) =>
  job(at, { id: `ghost-${i + 1}`, session: 'editor', priority: 'interactive', prompt: 'Keep typing' }),
);

/** Each keystroke's request supersedes the one before it (same session). */
export const Superseded: Story = {
  parameters: { inkling: { engine: { loadMs: 300, tokenMs: 80 } } },
  render: (args) => (
    <>
      <JobDriver script={SUPERSESSION} />
      <PoolInspector {...args} />
    </>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('.inkling-jobs tr[data-outcome="superseded"]')).toHaveLength(3), PATIENCE);
    await waitFor(() => expect(outcome(canvasElement, 'done')).not.toBeNull(), PATIENCE);
  },
};

const FAILING = [job(0, { id: 'ok-1' }), job(50, { id: 'bad-1', prompt: 'fail please' }), job(100, { id: 'ok-2' })];

/** A job the engine fails: the error is an outcome like any other. */
export const JobError: Story = {
  parameters: {
    inkling: {
      engine: {
        loadMs: 200,
        tokenMs: 20,
        reply: (request: StreamingChatCompletionRequest) => {
          if (String(request.messages.at(-1)?.content).includes('fail')) throw new Error('Simulated engine failure');
          return simulatedReply(request);
        },
      },
    },
  },
  render: (args) => (
    <>
      <JobDriver script={FAILING} />
      <PoolInspector {...args} />
    </>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(outcome(canvasElement, 'error')).not.toBeNull(), PATIENCE);
  },
};

const TWO_TASKS = [...BATCH, job(300, { id: 'chat-1', task: 'chat', priority: 'high', prompt: 'Hello there' })];

/** A job of another task waits on a busy pool: the pool grows to a second engine. */
export const TwoEngines: Story = {
  parameters: { inkling: { size: 2, engine: { loadMs: 400, tokenMs: 40 } } },
  render: (args) => (
    <>
      <JobDriver script={TWO_TASKS} />
      <PoolInspector {...args} />
    </>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('.inkling-engines tbody tr')).toHaveLength(2), PATIENCE);
  },
};
