import { useChat } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

/** `useChat`: a conversation with the reply streaming in. */
function ChatDemo() {
  const { messages, reply, status, sendMessage } = useChat({ system: 'You are concise.' });
  const [draft, setDraft] = useState('');
  return (
    <div className="story-stack">
      <ol aria-label="Conversation">
        {messages
          .filter((m) => m.role !== 'system')
          .map((m, i) => (
            // oxlint-disable-next-line react/no-array-index-key
            <li key={i} data-role={m.role}>
              <strong>{m.role}:</strong> {String(m.content)}
            </li>
          ))}
        {reply ? (
          <li data-role="assistant" aria-busy="true">
            <strong>assistant:</strong> {reply}
          </li>
        ) : null}
      </ol>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage(draft);
          setDraft('');
        }}
      >
        <input aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} /> <button type="submit">Send</button>
      </form>
      <p className="story-caption">status {status}</p>
    </div>
  );
}

const meta = {
  title: 'Hooks/useChat',
  render: () => <ChatDemo />,
  parameters: { docs: { page: hookDocsPage(useChat) }, inkling: { engine: { loadMs: 200, tokenMs: 40 } } },
} satisfies Meta<typeof ChatDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Send a message, get a (simulated) reply. */
export const Default: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Hello there{Enter}');
    await waitFor(
      () => expect(canvasElement.querySelector('li[data-role="assistant"]:not([aria-busy])')).toHaveTextContent(/simulated reply/),
      PATIENCE,
    );
  },
};
