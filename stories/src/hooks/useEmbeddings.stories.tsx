import { useEmbeddings } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

const TEXTS = ['Buy milk and bread', 'Weekly team meeting', 'Shopping list for Saturday'];

/** `useEmbeddings`: a vector per text (the simulated engine's are 8 numbers from a hash). */
function EmbeddingsDemo() {
  const { embeddings, status } = useEmbeddings({ texts: TEXTS });
  return (
    <div className="story-stack">
      <p className="story-caption">
        status <output data-testid="status">{status}</output>
      </p>
      <ul>
        {TEXTS.map((text, i) => (
          // The vector on a line of its own, so its arrival changes no line's length and the story keeps its height.
          <li key={text}>
            {text}:
            <br />
            <code>
              {embeddings?.[i]
                ?.slice(0, 3)
                .map((n) => n.toFixed(2))
                .join(', ') ?? '…'}
            </code>
          </li>
        ))}
      </ul>
    </div>
  );
}

const meta = {
  title: 'Hooks/useEmbeddings',
  render: () => <EmbeddingsDemo />,
  parameters: { docs: { page: hookDocsPage(useEmbeddings) }, inkling: { engine: { loadMs: 200 } } },
} satisfies Meta<typeof EmbeddingsDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Embeds each text once; cached after. */
export const Default: Story = {
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('done'), PATIENCE);
  },
};
