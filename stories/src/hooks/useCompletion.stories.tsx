import { useCompletion } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

/** `useCompletion`: one streaming job, with Stop. */
function CompletionDemo() {
  const { completion: text, status, complete, stop } = useCompletion();
  return (
    <div className="story-stack">
      <div>
        <button type="button" onClick={() => void complete('Write a haiku about the sea.')}>
          Complete
        </button>{' '}
        <button type="button" onClick={stop} disabled={status !== 'streaming' && status !== 'queued'}>
          Stop
        </button>
      </div>
      <p className="story-caption">
        status <output data-testid="status">{status}</output>
      </p>
      <output data-testid="text">{text}</output>
    </div>
  );
}

const meta = {
  title: 'Hooks/useCompletion',
  render: () => <CompletionDemo />,
  parameters: { docs: { page: hookDocsPage(useCompletion) }, inkling: { engine: { loadMs: 200, tokenMs: 60 } } },
} satisfies Meta<typeof CompletionDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Streams to the end. */
export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Complete' }));
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('done'), PATIENCE);
    await expect(canvas.getByTestId('text')).toHaveTextContent(/simulated reply/);
  },
};

/** Stopped halfway: the partial text stays. */
export const Stopped: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Complete' }));
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('streaming'), PATIENCE);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('cancelled'), PATIENCE);
  },
};
