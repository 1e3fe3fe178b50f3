import { type JobResult, usePool } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, useSyncExternalStore } from 'react';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

/** `usePool`: the provider's pool itself, for what the other hooks do not cover: here, a job submitted by hand. */
function PoolDemo() {
  const pool = usePool();
  const { phase } = useSyncExternalStore(pool.subscribe, pool.getSnapshot);
  const [result, setResult] = useState<JobResult | null>(null);
  const submit = async () => {
    setResult(null);
    setResult(await pool.submit({ session: 'use-pool-demo', params: { messages: [{ role: 'user', content: 'Say hello.' }] } }));
  };
  return (
    <div className="story-stack">
      <div>
        <button type="button" onClick={() => void submit()}>
          Submit a job
        </button>
      </div>
      <p className="story-caption">
        phase <output data-testid="phase">{phase}</output> · job <output data-testid="status">{result?.status ?? 'none yet'}</output>
      </p>
      <output data-testid="text">{result?.text}</output>
    </div>
  );
}

const meta = {
  title: 'Hooks/usePool',
  render: () => <PoolDemo />,
  parameters: { docs: { page: hookDocsPage(usePool) }, inkling: { engine: { loadMs: 300, tokenMs: 20 } } },
} satisfies Meta<typeof PoolDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The pool loads (its phase shows), then runs a job the button submits and resolves with its result. */
export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    await waitFor(() => expect(canvas.getByTestId('phase')).toHaveTextContent('ready'), PATIENCE);
    await userEvent.click(canvas.getByRole('button', { name: 'Submit a job' }));
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('done'), PATIENCE);
    await expect(canvas.getByTestId('text')).toHaveTextContent(/simulated reply/);
  },
};
