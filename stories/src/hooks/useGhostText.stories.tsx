import { useGhostText } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from '../support/PoolReady.js';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE, modelReady } from '../support/playHelpers.js';

/** `useGhostText` under your own markup: the suggestion shown beside a plain textarea. */
function GhostTextDemo() {
  const [text, setText] = useState('');
  const ghost = useGhostText({ session: 'hook-demo', text });
  return (
    <div className="story-stack">
      <PoolReady />
      <textarea
        aria-label="Text"
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Tab' && ghost.suggestion) {
            event.preventDefault();
            setText(ghost.accept().text);
          }
        }}
      />
      <p className="story-caption">
        status <output data-testid="status">{ghost.status}</output> · suggestion “
        <output data-testid="suggestion">{ghost.suggestion}</output>”
      </p>
    </div>
  );
}

const meta = {
  title: 'Hooks/useGhostText',
  render: () => <GhostTextDemo />,
  parameters: { docs: { page: hookDocsPage(useGhostText) }, inkling: { engine: { loadMs: 300 } } },
} satisfies Meta<typeof GhostTextDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Type, pause, get a suggestion; Tab takes it. */
export const Default: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Text' }), 'I hope');
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('done'), PATIENCE);
    const suggestion = canvas.getByTestId('suggestion').textContent ?? '';
    await userEvent.keyboard('{Tab}');
    await expect(canvas.getByRole('textbox', { name: 'Text' })).toHaveValue(`I hope${suggestion}`);
  },
};
