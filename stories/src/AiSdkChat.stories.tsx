import { useChat } from '@ai-sdk/react';
import { createInkling } from '@inkling/ai-sdk';
import { GhostTextarea, usePool } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { DirectChatTransport, ToolLoopAgent } from 'ai';
import { useMemo, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PATIENCE, ghostOf } from './support/playHelpers.js';

/**
 * `useChat` from `@ai-sdk/react` with no server: `DirectChatTransport` runs a
 * `ToolLoopAgent` in the page on `createInkling` over this story's pool, beside
 * Inkling's own `GhostTextarea` on the same pool. The chat's turns are one
 * task, so they hold one engine and ghost text (interactive) gets the other:
 * its suggestions never wait behind a reply.
 */
function AiSdkChatDemo() {
  const pool = usePool();
  const transport = useMemo(() => {
    const model = createInkling({ pool })('simulated', { task: 'story-ai-sdk-chat', session: 'story-ai-sdk-chat' });
    const agent = new ToolLoopAgent({ model, instructions: 'You are concise.' });
    // No server secret in the browser: show the engine's own message.
    return new DirectChatTransport({ agent, onError: (error) => (error instanceof Error ? error.message : String(error)) });
  }, [pool]);
  const { messages, status, error, sendMessage, stop } = useChat({ transport });
  const [draft, setDraft] = useState('');
  const [note, setNote] = useState('Dear Ana, thanks for the draft. ');
  return (
    <div className="story-stack">
      <ol aria-label="Conversation">
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            <strong>{message.role}:</strong> {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
          </li>
        ))}
      </ol>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage({ text: draft });
          setDraft('');
        }}
      >
        <input aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} /> <button type="submit">Send</button>{' '}
        <button type="button" onClick={() => void stop()} disabled={status !== 'streaming' && status !== 'submitted'}>
          Stop
        </button>
      </form>
      <p className="story-caption">
        chat <output data-testid="chat-status">{status}</output>
      </p>
      {error && <p role="alert">{error.message}</p>}
      <GhostTextarea aria-label="Note" rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
    </div>
  );
}

const meta = {
  title: 'Integrations/AI SDK useChat beside GhostTextarea',
  render: () => <AiSdkChatDemo />,
  // Two engines, slow replies: the chat streams for seconds while the person types.
  parameters: { inkling: { size: 2, engine: { loadMs: 200, tokenMs: 60 } } },
} satisfies Meta<typeof AiSdkChatDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A message streams its reply while the person types in the note, and a suggestion appears there meanwhile. */
export const GhostTextWhileTheChatStreams: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Tell me a long story about the sea');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(canvas.getByTestId('chat-status')).toHaveTextContent('streaming'), PATIENCE);
    const note = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.click(note);
    await userEvent.keyboard('{End}I will send');
    await waitFor(() => expect(ghostOf(note)?.textContent ?? '').not.toBe(''), PATIENCE);
    // The suggestion came while the reply was still streaming: ghost text did not wait behind it.
    await expect(canvas.getByTestId('chat-status')).toHaveTextContent('streaming');
    await waitFor(() => expect(canvas.getByTestId('chat-status')).toHaveTextContent('ready'), { timeout: 30_000 });
    const reply = canvas.getAllByRole('listitem').at(-1);
    await expect(reply?.dataset.role).toBe('assistant');
    await expect(reply?.textContent?.length ?? 0).toBeGreaterThan('assistant: '.length);
  },
};
