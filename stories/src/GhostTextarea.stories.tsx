import { GhostTextarea, ModelLoadProgress } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from './support/PoolReady.js';
import { PATIENCE, ghostOf, ghostRoot, modelReady, readySuggestion } from './support/playHelpers.js';

const meta = {
  title: 'Components/GhostTextarea',
  component: GhostTextarea,
  args: { 'aria-label': 'Note', rows: 5, placeholder: 'Write a note…' },
  parameters: { inkling: { engine: { loadMs: 300 } } },
  decorators: [
    (Story) => (
      <div className="story-stack">
        <PoolReady />
        <Story />
        <p className="story-caption">
          Tab accepts · Ctrl/Alt+→ accepts a word · Alt+F2 reads it · Escape dismisses · tap the ghost to accept
        </p>
      </div>
    ),
  ],
} satisfies Meta<typeof GhostTextarea>;

export default meta;
type Story = StoryObj<typeof meta>;

const textarea = (canvasElement: HTMLElement) => canvasElement.querySelector('textarea') as HTMLTextAreaElement;

/** Nothing typed yet: no request, no suggestion. */
export const Idle: Story = {
  play: async ({ canvas }) => {
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await expect(field).toHaveAttribute('aria-autocomplete', 'inline');
    await expect(ghostRoot(field).dataset.state).toBe('idle');
  },
};

/** Typing while the model still loads: the request waits in the queue. */
export const LoadingModel: Story = {
  parameters: { inkling: { engine: { loadMs: 600_000 } } },
  render: (args) => (
    <>
      <ModelLoadProgress />
      <GhostTextarea {...args} />
    </>
  ),
  play: async ({ canvas, userEvent }) => {
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    await waitFor(() => expect(ghostRoot(field).dataset.state).toBe('queued'));
    await expect(ghostOf(field)).toBeNull();
    await expect(canvas.getByRole('progressbar', { name: 'Model download' })).toBeInTheDocument();
  },
};

/** A suggestion drawn after the caret, in the textarea's own font. */
export const Suggesting: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    const suggestion = await readySuggestion(field);
    await expect(suggestion.length).toBeGreaterThan(3);
    await expect(ghostRoot(field)).toHaveAttribute('data-has-suggestion', 'true');
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(`Suggestion: ${suggestion.trim()}`), PATIENCE);
  },
};

/** Typing the suggestion's next letters keeps the rest, with no new request. */
export const TypingThrough: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    const suggestion = await readySuggestion(field);
    await userEvent.type(field, suggestion.slice(0, 4));
    await expect(ghostOf(field)).toHaveTextContent(suggestion.slice(4));
  },
};

/** Tab puts the suggestion into the text, as one undo step. */
export const TabAccepts: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    const suggestion = await readySuggestion(field);
    await userEvent.keyboard('{Tab}');
    await expect(field).toHaveValue(`Thanks for the${suggestion}`);
    await expect(field).toHaveFocus();
  },
};

/** Ctrl+→ takes one word of the suggestion. */
export const AcceptWord: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    const suggestion = await readySuggestion(field);
    await userEvent.keyboard('{Control>}{ArrowRight}{/Control}');
    const word = /^\s*\S+/.exec(suggestion)?.[0] ?? '';
    await expect(field).toHaveValue(`Thanks for the${word}`);
    await expect(ghostOf(field)).toHaveTextContent(suggestion.slice(word.length).trim());
  },
};

/** Escape hides the suggestion until the text changes. */
export const Dismissed: Story = {
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'See you');
    await readySuggestion(field);
    await userEvent.keyboard('{Escape}');
    await expect(ghostOf(field)).toBeNull();
    await expect(ghostRoot(field)).not.toHaveAttribute('data-has-suggestion');
  },
};

/** Tab with nothing to accept moves focus on, as everywhere else. */
export const TabMovesFocus: Story = {
  render: (args) => (
    <>
      <GhostTextarea {...args} />
      <button type="button">Save</button>
    </>
  ),
  play: async ({ canvas, userEvent }) => {
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.click(field);
    await userEvent.keyboard('{Tab}');
    await expect(canvas.getByRole('button', { name: 'Save' })).toHaveFocus();
  },
};

/** The caret mid-text: the ghost sits between the words, the rest of the text after it. */
export const MidText: Story = {
  args: { defaultValue: 'Thanks for the notes from Monday.' },
  play: async ({ canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = textarea(canvasElement);
    await userEvent.click(field);
    field.setSelectionRange(14, 14);
    field.dispatchEvent(new Event('select', { bubbles: true }));
    await readySuggestion(field);
    const overlay = ghostRoot(field).querySelector('[data-inkling-overlay]') as HTMLElement;
    await expect(overlay.firstChild?.textContent).toBe('Thanks for the');
    await expect(overlay.lastChild?.textContent).toBe(' notes from Monday.');
  },
};

/** Long text in a narrow box: the ghost follows the wrapped line. */
export const WrappedLines: Story = {
  args: {
    defaultValue:
      'Dear team, here is a short update on the launch. The editor now suggests the rest of a sentence as you type, and the translation keeps running in the background. I hope',
    style: { width: 320 },
    rows: 6,
  },
  play: async ({ canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = textarea(canvasElement);
    await userEvent.click(field);
    field.setSelectionRange(field.value.length, field.value.length);
    field.dispatchEvent(new Event('select', { bubbles: true }));
    await readySuggestion(field);
  },
};

function ControlledNote() {
  const [text, setText] = useState('');
  return (
    <>
      <GhostTextarea aria-label="Note" rows={4} value={text} onChange={(event) => setText(event.target.value)} />
      <p className="story-caption">
        Parent state: <output data-testid="parent">{text.length}</output> characters
      </p>
    </>
  );
}

/** Controlled: an accepted suggestion reaches the parent's onChange. */
export const Controlled: Story = {
  render: () => <ControlledNote />,
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Hope');
    const suggestion = await readySuggestion(field);
    await userEvent.keyboard('{Tab}');
    await expect(canvas.getByTestId('parent')).toHaveTextContent(String(`Hope${suggestion}`.length));
  },
};

/** The engine failed the request: `data-state="error"`, the textarea keeps working. */
export const EngineError: Story = {
  parameters: {
    inkling: {
      engine: {
        loadMs: 300,
        reply: () => {
          throw new Error('Simulated engine failure');
        },
      },
    },
  },
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Hello');
    await waitFor(() => expect(ghostRoot(field).dataset.state).toBe('error'), PATIENCE);
    await expect(field).toHaveValue('Hello');
  },
};

function noWebGPU(): Error {
  const error = new Error('navigator.gpu is missing: this browser has no WebGPU.');
  error.name = 'WebGPUUnavailableError';
  // What failed, as @inkling/webllm's error says it: the advice goes by it.
  return Object.assign(error, { kind: 'no-device', device: 'gpu' });
}

/** No WebGPU: the model cannot load; say what to do, keep the textarea usable. */
export const NoWebGPU: Story = {
  parameters: { inkling: { engine: { loadMs: 200, failLoad: noWebGPU } } },
  render: (args) => (
    <>
      <ModelLoadProgress />
      <GhostTextarea {...args} />
    </>
  ),
  play: async ({ canvas, userEvent }) => {
    // The model-load notice says it (the textarea's own alert region stays empty).
    await waitFor(
      () =>
        expect(
          canvas
            .getAllByRole('alert')
            .map((alert) => alert.textContent)
            .join(' '),
        ).toMatch(/no WebGPU/),
      PATIENCE,
    );
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Still works');
    await expect(field).toHaveValue('Still works');
  },
};
