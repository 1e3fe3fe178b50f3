import { GhostTextarea, PoolProvider, TranslateList, defaultTranslateParams } from '@inkling/react';
import type { TranslateParamsInput } from '@inkling/react';
import { EnginePool } from '@inkling/scheduler';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { countingEngines } from './countingEngines.js';
import { testEngines } from './engines.js';

afterEach(() => cleanup());

const LONG = { timeout: 15_000 };
const textbox = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' });
// The textarea carries the ghost state; its wrapper holds the overlay that draws the suggestion.
const ghostState = () => textbox().dataset.state;
const ghostText = () => textbox().parentElement?.querySelector('[data-inkling-ghost]')?.textContent ?? '';
const rows = () => screen.getAllByRole('row').slice(1);
const statuses = () => rows().map((row) => row.dataset.status);
const translations = () => rows().map((row) => within(row).getAllByRole('cell')[1]?.textContent ?? '');

describe('GhostTextarea on a real engine', () => {
  it('streams ghost text at the caret and Tab accepts it', async () => {
    const pool = new EnginePool({ createEngine: testEngines(), size: 1 });
    render(
      <PoolProvider pool={pool}>
        <GhostTextarea aria-label="Note" maxTokens={8} />
      </PoolProvider>,
    );
    await userEvent.click(textbox());
    await userEvent.keyboard('Thanks for the update on the project');
    await waitFor(() => expect(ghostState()).toBe('done'), LONG);
    const suggestion = ghostText();
    expect(suggestion.length).toBeGreaterThan(0);
    await userEvent.keyboard('{Tab}');
    expect(textbox().value).toBe(`Thanks for the update on the project${suggestion}`);
    await pool.unload();
  });

  it('a superseded suggestion stops within two tokens of the keystroke that replaced it', async () => {
    const { createEngine, calls } = countingEngines(testEngines());
    const pool = new EnginePool({ createEngine, size: 1 });
    render(
      <PoolProvider pool={pool}>
        <GhostTextarea aria-label="Note" maxTokens={400} debounceMs={0} />
      </PoolProvider>,
    );
    await userEvent.click(textbox());
    await userEvent.keyboard('Could you send me the draft');
    await waitFor(() => expect(calls.at(-1)?.contentChunks ?? 0).toBeGreaterThan(4), LONG);
    const superseded = calls.at(-1)!;
    await userEvent.keyboard(' of');
    await waitFor(() => expect(superseded.finishReason).toBe('abort'), LONG);
    expect(superseded.cancelledAt).toBeGreaterThan(0);
    expect(superseded.afterCancel).toBeLessThanOrEqual(2);
    expect(superseded.contentChunks).toBeLessThan(400);
    await pool.unload();
  });
});

// cache_prompt off: llama.cpp otherwise reuses the previous request's cached prefix and reads only
// the rest, in a batch of another size, whose rounding may tip a later greedy pick; the
// comparison below is about preemption losing nothing, not about that.
const buildParams = (input: TranslateParamsInput) => ({ ...defaultTranslateParams(input), max_tokens: 24, cache_prompt: false });

describe('a page translation on a one-engine pool', () => {
  const ITEMS = ['Good morning, and thanks for the update.', 'See you at the meeting next week.', 'The report is ready for review.'];

  it('is preempted by ghost text, and every item still ends done with its full text', async () => {
    const pool = new EnginePool({ createEngine: testEngines(), size: 1 });
    render(
      <PoolProvider pool={pool}>
        <GhostTextarea aria-label="Note" maxTokens={6} debounceMs={0} />
        <TranslateList items={ITEMS} to="fr" buildParams={buildParams} />
      </PoolProvider>,
    );
    await waitFor(() => expect(translations()[0]?.length ?? 0).toBeGreaterThan(0), LONG);
    await userEvent.click(textbox());
    await userEvent.keyboard('Thanks');
    await waitFor(() => expect(ghostState()).toBe('done'), LONG);
    await waitFor(() => expect(statuses()).toEqual(['done', 'done', 'done']), LONG);
    const recent = pool.getSnapshot().recent;
    expect(recent.some((job) => job.task === 'translate-list' && job.status === 'preempted')).toBe(true);
    const shown = translations();
    // At temperature 0 each item's text is what the model says for it alone.
    for (const [index, text] of ITEMS.entries()) {
      const alone = await pool.submit({ params: buildParams({ text, to: 'fr', from: undefined }) });
      expect(alone.status).toBe('done');
      expect(shown[index]).toBe(alone.text.trim());
    }
    await pool.unload();
  });
});
