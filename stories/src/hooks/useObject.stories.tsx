import { GhostTextarea, type JsonSchema, useObject } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE } from '../support/playHelpers.js';

const ActionItems: JsonSchema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'object',
        properties: { task: { type: 'string', maxLength: 40 }, owner: { type: 'string', maxLength: 20 } },
        required: ['task'],
      },
    },
  },
  required: ['items'],
};

interface Actions {
  items?: Array<{ task?: string; owner?: string } | undefined>;
}

const NOTE = 'Call Maria about the budget on Monday. Ana sends the draft before Friday.';

/**
 * `useObject` extracting a note's action items while the person types: low
 * priority, preemptible, one session (each edit supersedes the extraction
 * before it), so ghost text in the same note never waits behind it.
 */
function ActionItemsDemo() {
  const [note, setNote] = useState(NOTE);
  const { object, status, error, submit } = useObject({
    schema: ActionItems,
    priority: 'low',
    preemptible: true,
    session: 'story-actions',
  });
  useEffect(() => {
    const timer = setTimeout(() => void submit(`List the action items in this note:\n${note}`), 500);
    return () => clearTimeout(timer);
  }, [note, submit]);
  const items = (object as Actions | undefined)?.items ?? [];
  return (
    <div className="story-stack">
      <GhostTextarea aria-label="Note" rows={4} value={note} onChange={(event) => setNote(event.target.value)} />
      <p className="story-caption">
        action items <output data-testid="status">{status}</output>
      </p>
      <ul aria-label="Action items" aria-busy={status === 'streaming' || status === 'queued'}>
        {items.map((item, i) => (
          <li key={i}>
            {item?.task}
            {item?.owner ? ` (${item.owner})` : ''}
          </li>
        ))}
      </ul>
      {error && <p role="alert">{error.message}</p>}
    </div>
  );
}

const meta = {
  title: 'Hooks/useObject',
  render: () => <ActionItemsDemo />,
  parameters: { docs: { page: hookDocsPage(useObject) }, inkling: { engine: { loadMs: 200, tokenMs: 30 } } },
} satisfies Meta<typeof ActionItemsDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The items stream in as a list and end validated. */
export const WhileTyping: Story = {
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('done'), PATIENCE);
    await expect(canvas.getByRole('list', { name: 'Action items' }).children.length).toBeGreaterThan(0);
  },
};

/** An edit supersedes the extraction running for the text before it. */
export const Superseded: Story = {
  play: async ({ canvas, userEvent }) => {
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent(/streaming|done/), PATIENCE);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.click(field);
    await userEvent.keyboard('{End} Also book the room.');
    await waitFor(() => expect(canvas.getByTestId('status')).toHaveTextContent('done'), PATIENCE);
  },
};
