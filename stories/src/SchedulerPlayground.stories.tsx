import { GhostTextarea, ModelLoadProgress, PoolInspector, PoolProvider, TranslateList, usePool } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from './support/PoolReady.js';
import { PATIENCE, modelReady } from './support/playHelpers.js';
import { NOTES } from './support/sampleText.js';
import './SchedulerPlayground.css';

/** Controls of the playground. `engines`, `tokenMs`, `prefillMs` rebuild the pool (see withPool). */
interface PlaygroundArgs {
  engines: number;
  tokenMs: number;
  prefillMs: number;
  preemptible: boolean;
  to: string;
}

function Playground({ preemptible, to }: PlaygroundArgs) {
  const pool = usePool();
  // "Translate again": a fresh provider over the same pool has an empty cache.
  const [run, setRun] = useState(0);
  return (
    <div className="playground">
      <PoolReady />
      <section className="playground-panel" aria-labelledby="pg-editor">
        <h2 id="pg-editor">Ghost text</h2>
        <ModelLoadProgress />
        <GhostTextarea aria-label="Note" session="editor" rows={7} placeholder="Type here while the batch translates…" />
        <p className="story-caption">Interactive priority, superseding by session: each pause asks again and cancels the last request.</p>
      </section>
      <section className="playground-panel" aria-labelledby="pg-batch">
        <div className="playground-heading">
          <h2 id="pg-batch">Batch translation</h2>
          <button type="button" className="playground-button" onClick={() => setRun((n) => n + 1)}>
            Translate again
          </button>
        </div>
        <PoolProvider key={run} pool={pool}>
          <TranslateList task="translate-notes" items={NOTES} to={to} preemptible={preemptible} />
        </PoolProvider>
      </section>
      <section className="playground-panel playground-inspector" aria-label="Pool">
        <PoolInspector title="Pool inspector" maxJobs={14} />
      </section>
    </div>
  );
}

const meta = {
  title: 'Playground',
  component: Playground,
  parameters: { layout: 'fullscreen', inkling: { engine: { loadMs: 800 } } },
  args: { engines: 1, tokenMs: 60, prefillMs: 150, preemptible: true, to: 'fr' },
  argTypes: {
    engines: {
      control: { type: 'range', min: 1, max: 4, step: 1 },
      description: 'Most engines in the pool (each a full copy of the model)',
    },
    tokenMs: { control: { type: 'range', min: 5, max: 300, step: 5 }, description: 'Milliseconds per token' },
    prefillMs: { control: { type: 'range', min: 0, max: 2000, step: 50 }, description: 'Milliseconds to the first token' },
    preemptible: { control: 'boolean', description: 'Let ghost text interrupt a batch item when no engine is free' },
    to: { control: 'select', options: ['fr', 'es', 'de', 'ja'], description: 'Target language' },
  },
  decorators: [
    (Story) => (
      <div style={{ padding: 16 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Playground>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Ghost text, a batch translation and the inspector on one pool. Type while
 * the batch runs and watch the inspector: each pause supersedes the last
 * ghost request; with one engine, ghost text preempts the running item,
 * which starts over. Turn `preemptible` off to see ghost text wait instead,
 * or add engines to see the pool grow.
 */
export const SchedulerPlayground: Story = {
  name: 'Scheduler playground',
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const rows = () => [...canvasElement.querySelectorAll<HTMLElement>('.inkling-translate-table tbody tr')];
    await waitFor(() => expect(rows().some((row) => row.dataset.status === 'streaming')).toBe(true), PATIENCE);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Note' }), 'Thanks for the');
    const preempted = () => canvasElement.querySelector('.inkling-inspector-counts [data-outcome="preempted"]');
    await waitFor(() => expect(preempted()).not.toHaveAttribute('data-count', '0'), PATIENCE);
    // Typing on while a suggestion streams supersedes its request: the inspector counts it so.
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await waitFor(() => expect(field.parentElement).toHaveAttribute('data-state', 'streaming'), PATIENCE);
    await userEvent.type(field, ' team');
    await waitFor(
      () =>
        expect(canvasElement.querySelector('.inkling-inspector-counts [data-outcome="superseded"]')).not.toHaveAttribute('data-count', '0'),
      PATIENCE,
    );
  },
};
