import { useGhostTextarea } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from '../support/PoolReady.js';
import { hookDocsPage } from '../support/hookDocsPage.js';
import { PATIENCE, ghostOf, modelReady, readySuggestion } from '../support/playHelpers.js';

/**
 * `useGhostTextarea` under your own markup: the prop bags spread on a
 * textarea, overlay, live region and error line of this story's making, and
 * a button of its own that takes the suggestion's next word.
 */
function GhostTextareaDemo() {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [accepted, setAccepted] = useState('');
  const g = useGhostTextarea(
    {
      'aria-label': 'Draft',
      rows: 4,
      value: text,
      onChange: (event) => setText(event.target.value),
      onAccept: (inserted, how) => setAccepted(`${how}: “${inserted}”`),
    },
    ref,
  );
  return (
    <div className="story-stack">
      <PoolReady />
      <div {...g.rootProps}>
        <textarea {...g.textareaProps} ref={ref} />
        <div {...g.overlayProps}>
          {g.suggestion ? (
            <>
              <span {...g.textProps}>{g.before}</span>
              <span {...g.ghostProps}>{g.suggestion}</span>
              <span {...g.textProps}>{g.after}</span>
            </>
          ) : null}
        </div>
        <div {...g.liveRegionProps}>{g.announcement}</div>
        <div {...g.errorProps}>{g.errorMessage}</div>
      </div>
      <div>
        {/* Pressed without taking the focus: the suggestion shows only while the textarea has it. */}
        <button type="button" disabled={!g.suggestion} onMouseDown={(event) => event.preventDefault()} onClick={() => g.acceptWord()}>
          Accept next word
        </button>
      </div>
      <p className="story-caption">
        status <output data-testid="status">{g.ghost.status}</output> · last accepted{' '}
        <output data-testid="accepted">{accepted || 'nothing yet'}</output>
      </p>
    </div>
  );
}

const meta = {
  title: 'Hooks/useGhostTextarea',
  render: () => <GhostTextareaDemo />,
  parameters: { docs: { page: hookDocsPage(useGhostTextarea) }, inkling: { engine: { loadMs: 300 } } },
} satisfies Meta<typeof GhostTextareaDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Type, pause: the suggestion is drawn in this story's overlay; Tab (the textarea's prop bag) takes all of it. */
export const Default: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Draft' });
    await userEvent.type(field, 'Thanks for the');
    const suggestion = await readySuggestion(field);
    await expect(suggestion.length).toBeGreaterThan(3);
    await expect(ghostOf(field)?.closest('[data-inkling-overlay]')).toHaveAttribute('aria-hidden', 'true');
    await userEvent.keyboard('{Tab}');
    await expect(field).toHaveValue(`Thanks for the${suggestion}`);
    await expect(canvas.getByTestId('accepted')).toHaveTextContent(`all: “${suggestion}”`);
  },
};

/** The hook's `acceptWord`, from a button of the story's own: one word goes in, the rest stays a suggestion. */
export const AcceptWordFromAButton: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Draft' });
    await userEvent.type(field, 'Thanks for the');
    const suggestion = await readySuggestion(field);
    await userEvent.click(canvas.getByRole('button', { name: 'Accept next word' }));
    await waitFor(() => expect(canvas.getByTestId('accepted')).toHaveTextContent(/^word: /), PATIENCE);
    const value = (field as HTMLTextAreaElement).value;
    await expect(value.length).toBeGreaterThan('Thanks for the'.length);
    await expect(`Thanks for the${suggestion}`.startsWith(value)).toBe(true);
    await expect(value).not.toBe(`Thanks for the${suggestion}`);
    await expect(field).toHaveFocus();
  },
};
