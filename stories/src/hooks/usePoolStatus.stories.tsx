import { usePoolStatus } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { JobDriver, job } from '../support/JobDriver.js';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

const SCRIPT = [job(0, { id: 'a', task: 'one' }), job(0, { id: 'b', task: 'one' }), job(0, { id: 'c', task: 'one' })];

/** `usePoolStatus`: the raw snapshot, as numbers. */
function StatusDemo() {
  const { phase, size, running, queued, recent } = usePoolStatus();
  return (
    <dl className="story-stack" data-testid="status" data-finished={recent.length}>
      <JobDriver script={SCRIPT} />
      <div>
        <dt>phase</dt>
        <dd>{phase}</dd>
      </div>
      <div>
        <dt>engines · running · queued · finished</dt>
        <dd>
          {size} · {running} · {queued} · {recent.length}
        </dd>
      </div>
    </dl>
  );
}

const meta = {
  title: 'Hooks/usePoolStatus',
  render: () => <StatusDemo />,
  parameters: { docs: { page: hookDocsPage(usePoolStatus) }, inkling: { engine: { loadMs: 200, tokenMs: 30 } } },
} satisfies Meta<typeof StatusDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three jobs through one engine. */
export const Default: Story = {
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveAttribute('data-finished', '3'), PATIENCE);
  },
};
