import { builtInEngines } from '@inkling/browser-ai';
import { createFakeBuiltInAI } from '@inkling/browser-ai/testing';
import { GhostTextarea, PoolProvider, TranslateList, useObject } from '@inkling/react';
import { EnginePool } from '@inkling/scheduler';
import { validateJson } from '@inkling/scheduler/engine';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';

// The answering path: Chrome's APIs as a fake whose every member is checked against
// Chromium's own interfaces in realChromium.test.ts, in the same run.

afterEach(() => cleanup());

const LONG = { timeout: 20_000 };
const textbox = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' });
const output = () => document.querySelector('output') as HTMLOutputElement;
const ghostState = () => textbox().dataset.state;
const ghostText = () => textbox().parentElement?.querySelector('[data-inkling-ghost]')?.textContent ?? '';
// By selector: a role query over 200 rows, polled, would cost more than the translation it waits for.
const rows = () => [...document.querySelectorAll<HTMLTableRowElement>('tr[data-status]')];
const statuses = () => rows().map((row) => row.dataset.status);
const translations = () => rows().map((row) => row.cells[1]?.textContent ?? '');

/** The built-in model's fake reply: a continuation of a few words. */
const continuation = () => ' and thanks again for the quick reply';

describe('the hooks and components on the built-in engine', () => {
  it('GhostTextarea streams ghost text from a clone of the session, Tab accepts it, and replaced clones are destroyed', async () => {
    const fake = createFakeBuiltInAI({ reply: continuation, pieceMs: 5 });
    const pool = new EnginePool({ size: 1, createEngine: builtInEngines({ globals: fake.globals, translation: false }) });
    render(
      <PoolProvider pool={pool}>
        <GhostTextarea aria-label="Note" maxTokens={8} />
      </PoolProvider>,
    );
    await pool.load();
    await userEvent.click(textbox());
    await userEvent.keyboard('Thanks for the update');
    await waitFor(() => expect(ghostState()).toBe('done'), LONG);
    const suggestion = ghostText();
    expect(suggestion).toBe(' and thanks again for the quick reply');
    await userEvent.keyboard('{Tab}');
    expect(textbox().value).toBe(`Thanks for the update${suggestion}`);
    await userEvent.keyboard(' Bye');
    await waitFor(() => expect(ghostState()).toBe('done'), LONG);
    // One base session holds the system prompt; every suggestion ran on a clone of it, and
    // the clones a newer keystroke replaced are gone: the root, the base and at most one
    // clone per live session (the field's, and its speculative next suggestion's) are alive.
    expect(fake.stats.sessionsCreated).toBe(2);
    expect(fake.stats.clones).toBeGreaterThanOrEqual(2);
    expect(fake.stats.sessionsDestroyed).toBeGreaterThanOrEqual(fake.stats.clones - 2);
    expect(fake.stats.liveSessions).toBeLessThanOrEqual(4);
    for (const prompt of fake.stats.prompts) expect(prompt.contextBefore).toBeGreaterThan(0);
    await pool.unload();
    expect(fake.stats.liveSessions).toBe(0);
  });

  it(
    'TranslateList translates 200 items on the Translator API with typing in between: every item done, preempted ones redone, one en→fr translator',
    { timeout: 60_000 },
    async () => {
      const fake = createFakeBuiltInAI({ reply: continuation, pieceMs: 1 });
      const pool = new EnginePool({ size: 1, createEngine: builtInEngines({ globals: fake.globals }) });
      const items = Array.from({ length: 200 }, (_, i) => `Line ${i} here`);
      const preempted = new Set<string>();
      pool.subscribe(() => {
        for (const job of pool.getSnapshot().recent) if (job.task === 'translate-list' && job.status === 'preempted') preempted.add(job.id);
      });
      await pool.load();
      render(
        <PoolProvider pool={pool}>
          <GhostTextarea aria-label="Note" maxTokens={4} debounceMs={0} />
          <TranslateList items={items} from="en" to="fr" />
        </PoolProvider>,
      );
      await waitFor(() => expect(statuses().filter((s) => s === 'done').length).toBeGreaterThan(5), LONG);
      await userEvent.click(textbox());
      for (const word of ['Dear', ' team,', ' the', ' page', ' is', ' nearly', ' done']) {
        await userEvent.keyboard(word);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      await waitFor(() => expect(statuses().filter((s) => s === 'done')).toHaveLength(200), { timeout: 50_000 });
      expect(translations()).toEqual(items.map((item) => `«fr» ${item}`));
      expect(preempted.size).toBeGreaterThan(0);
      // Preempted items were translated again, from the start: one translateStreaming call more for
      // each preempted while it streamed (one preempted before its stream opened costs none).
      expect(fake.stats.translations).toBeGreaterThan(200);
      expect(fake.stats.translations).toBeLessThanOrEqual(200 + preempted.size);
      expect(fake.stats.translatorsCreated).toEqual(new Map([['en→fr', 1]]));
      await pool.unload();
      expect(fake.stats.translatorsDestroyed).toBe(1);
    },
  );

  it("useObject's structured output is valid against its schema: the engine hands it to the Prompt API as responseConstraint", async () => {
    // The model's free answer is prose: only a constrained prompt makes it the object.
    const fake = createFakeBuiltInAI({ reply: () => 'Sure: call Maria, book the venue, send the agenda.', pieceMs: 2 });
    const pool = new EnginePool({ size: 1, createEngine: builtInEngines({ globals: fake.globals, translation: false }) });
    const seen: string[] = [];
    function Actions({ note }: { note: string }) {
      const { object, status, error, submit } = useObject({ schema: ACTIONS, session: 'actions', priority: 'low', preemptible: true });
      useEffect(() => void submit(`List the action items in this note:\n${note}`), [note, submit]);
      const shown = JSON.stringify(object ?? null);
      if (seen.at(-1) !== shown) seen.push(shown);
      return <output data-status={status} data-object={shown} data-error={error?.message ?? ''} />;
    }
    render(
      <PoolProvider pool={pool}>
        <Actions note="Call Maria about the venue." />
      </PoolProvider>,
    );
    await pool.load();
    await waitFor(() => expect(output().dataset.status).toBe('done'), LONG);
    expect(output().dataset.error).toBe('');
    const object = JSON.parse(output().dataset.object ?? 'null') as unknown;
    expect(validateJson(object, ACTIONS)).toBeUndefined();
    expect(object).toEqual({
      items: [
        { task: 'Sure', owner: 'call' },
        { task: 'Maria', owner: 'book' },
      ],
    });
    // It streamed: partial objects came before the whole one.
    expect(seen.length).toBeGreaterThan(2);
    expect(fake.stats.prompts.at(-1)?.responseConstraint).toMatchObject({ required: ['items'] });
    await pool.unload();
  });
});

const ACTIONS = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      minItems: 2,
      items: { type: 'object', properties: { task: { type: 'string' }, owner: { type: 'string' } }, required: ['task', 'owner'] },
    },
  },
  required: ['items'],
  additionalProperties: false,
} as const;
