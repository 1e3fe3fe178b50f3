import { openaiEngines } from '@inkling/openai';
import { simulatedServer } from '@inkling/openai/testing';
import { EnginePool, GhostTextarea, PoolInspector, PoolProvider, TranslateList } from '@inkling/react';
import { simulatedReply } from '@inkling/react/testing';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PoolReady } from './support/PoolReady.js';
import { PATIENCE, modelReady, readySuggestion } from './support/playHelpers.js';
import { NOTES } from './support/sampleText.js';
import './SchedulerPlayground.css';

/**
 * A pool on an OpenAI-compatible server. Here the "server" is SIMULATED (a
 * `fetch` that speaks the protocol); point `baseURL` at vLLM, Ollama or
 * llama.cpp's server for a real one.
 */
function useRemotePool(): EnginePool {
  const [pool] = useState(
    () =>
      new EnginePool({
        size: 1,
        createEngine: openaiEngines({
          baseURL: 'https://llm.example/v1',
          model: 'simulated-server',
          concurrency: 4,
          fetch: simulatedServer({ reply: (request) => simulatedReply({ ...request, stream: true }), tokenMs: 40, prefillMs: 120 }),
        }),
      }),
  );
  useEffect(() => () => void pool.unload(), [pool]);
  return pool;
}

function MixedPools({ to }: { to: string }) {
  const remote = useRemotePool();
  return (
    <div className="playground">
      <PoolReady />
      <section className="playground-panel" aria-labelledby="mx-local">
        <h2 id="mx-local">Ghost text on this device</h2>
        <GhostTextarea aria-label="Note" session="editor" rows={6} placeholder="Type here while the server translates…" />
        <PoolInspector title="Local pool" maxJobs={6} />
      </section>
      {/* A second provider: everything under it uses the server's pool. */}
      <PoolProvider pool={remote} modelId="simulated-server">
        <section className="playground-panel" aria-labelledby="mx-remote">
          <h2 id="mx-remote">Batch translation on a server</h2>
          <TranslateList task="translate-notes" items={NOTES} to={to} />
          <PoolInspector title="Server pool" maxJobs={6} />
        </section>
      </PoolProvider>
    </div>
  );
}

const meta = {
  title: 'Playground/Mixed pools',
  component: MixedPools,
  parameters: { layout: 'fullscreen', inkling: { engine: { loadMs: 300 } } },
  args: { to: 'es' },
  argTypes: { to: { control: 'select', options: ['fr', 'es', 'de'], description: 'Target language' } },
  decorators: [
    (Story) => (
      <div style={{ padding: 16 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof MixedPools>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Ghost text on a local pool and a page translation on a server's pool,
 * through two `PoolProvider`s: the same hooks and components on both. The
 * server's engine runs several requests at once (its `concurrency` lanes);
 * the local engine only ever runs the ghost text.
 */
export const LocalGhostTextRemoteTranslation: Story = {
  name: 'Local ghost text, remote translation',
  play: async ({ canvas, canvasElement, userEvent }) => {
    await modelReady(canvasElement);
    const [local, server] = [...canvasElement.querySelectorAll<HTMLElement>('.inkling-inspector')];
    // The server runs several items of the batch at once.
    await waitFor(() => expect(Number(server?.dataset.running)).toBeGreaterThan(1), PATIENCE);
    const field = canvas.getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, 'Thanks for the');
    await expect(readySuggestion(field)).resolves.not.toBe('');
    // Nothing of the batch ever ran on the local engine: only the editor's suggestions (and the
    // speculative next one, in session `editor:next`).
    expect(local?.querySelectorAll('tr[data-outcome]').length).toBeGreaterThan(0);
    const tasks = [...(local?.querySelectorAll('.inkling-task') ?? [])].map((cell) => cell.textContent);
    expect(tasks.filter((task) => task !== 'editor' && task !== 'editor:next')).toEqual([]);
    await waitFor(() => expect(canvasElement.querySelector('.inkling-translate-list')).toHaveAttribute('data-status', 'done'), {
      timeout: 20_000,
    });
  },
};
