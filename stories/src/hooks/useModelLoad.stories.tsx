import { useModelLoad } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

/** `useModelLoad` under your own markup. */
function LoadDemo() {
  const { status, progress, text, error, load } = useModelLoad();
  return (
    <div className="story-stack">
      <p className="story-caption">
        status <output data-testid="status">{status}</output> · {Math.round(progress * 100)}% · {text}
      </p>
      <progress aria-label="Model" value={progress} max={1} />
      {error ? (
        <p role="alert">
          {error.message}{' '}
          <button type="button" onClick={() => void load()}>
            Retry
          </button>
        </p>
      ) : null}
    </div>
  );
}

const meta = {
  title: 'Hooks/useModelLoad',
  render: () => <LoadDemo />,
  parameters: { docs: { page: hookDocsPage(useModelLoad) }, inkling: { engine: { loadMs: 2000 } } },
} satisfies Meta<typeof LoadDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Loading, then ready. */
export const Loading: Story = {
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('ready'), PATIENCE);
  },
};

/** A failed load is state, with a retry. */
export const Error: Story = {
  parameters: { inkling: { engine: { loadMs: 200, failLoad: () => new globalThis.Error('Simulated load failure') } } },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent('Simulated load failure'), PATIENCE);
  },
};
