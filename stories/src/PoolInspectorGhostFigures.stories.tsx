import { GhostFigures, GhostTextarea, PoolInspector, ghostEvents } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from './support/PoolReady.js';
import { PATIENCE, modelReady, readySuggestion } from './support/playHelpers.js';

/** A note with ghost text whose events feed the figures the inspector shows. */
function NoteWithFigures() {
  const [figures] = useState(() => new GhostFigures());
  return (
    <div className="story-stack">
      <PoolReady />
      <GhostTextarea aria-label="Note" rows={4} placeholder="Write a note…" events={ghostEvents(figures.record)} />
      <PoolInspector ghostFigures={figures} />
    </div>
  );
}

const meta = {
  title: 'Components/PoolInspector ghost figures',
  component: NoteWithFigures,
  parameters: { inkling: { engine: { loadMs: 300, tokenMs: 40 } } },
} satisfies Meta<typeof NoteWithFigures>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Type, take a suggestion with Tab: the inspector's "Ghost text" table counts it (acceptance, keystroke → first glyph, share without an engine call). */
export const AcceptedSuggestion: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    await readySuggestion(field);
    await userEvent.keyboard('{Tab}');
    const table = canvas.getByRole('table', { name: 'Ghost text' });
    await waitFor(() => expect(table.querySelector('tbody tr[data-model]')).not.toBeNull(), PATIENCE);
    await waitFor(() => expect(table.querySelectorAll('tbody tr[data-model] td')[4]).toHaveTextContent('100%'), PATIENCE);
  },
};
