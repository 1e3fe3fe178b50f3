import { useBatchTranslate } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';
import { NOTES } from '../support/sampleText.js';

const ITEMS = NOTES.slice(0, 4);

/** `useBatchTranslate` under your own markup: a list with each item's status. */
function BatchDemo({ to }: { to: string }) {
  const { results, progress, status } = useBatchTranslate({ task: 'hook-demo', items: ITEMS, to });
  return (
    <div className="story-stack">
      <p className="story-caption">
        {status}: {progress.done} of {progress.total}
      </p>
      <ul>
        {results.map((result) => (
          <li key={result.source} data-status={result.status}>
            {result.source} → {result.text || '…'}
          </li>
        ))}
      </ul>
    </div>
  );
}

const meta = {
  title: 'Hooks/useBatchTranslate',
  render: (args) => <BatchDemo {...args} />,
  args: { to: 'es' },
  argTypes: { to: { control: 'select', options: ['fr', 'es', 'de', 'ja'] } },
  parameters: { docs: { page: hookDocsPage(useBatchTranslate) }, inkling: { engine: { loadMs: 200, tokenMs: 30 } } },
} satisfies Meta<typeof BatchDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Translates as soon as it mounts. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('li[data-status="done"]')).toHaveLength(ITEMS.length), PATIENCE);
  },
};
