// @vitest-environment node
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import * as fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GhostTextController, type GhostTextOptions } from '../../../src/ghost/core/ghostTextController.js';
import { engineCalls, fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The text before the caret that a default ghost request was built from. */
function beforeOf(request: StreamingChatCompletionRequest): string {
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(request.messages.at(-1)?.content))?.[1] ?? '';
}

/** A reply that names the text it answers (its length and last letter), so a suggestion shown for other text shows. */
const namingReply = (before: string) => `${/\s$/.test(before) ? '' : ' '}<${before.length}${before.slice(-1).trim()}> x`;

async function setup(
  reply: (before: string) => string,
  engine: { prefillMs?: number; tokenMs?: number; ignoreInterrupt?: boolean } = {},
  defaults: Partial<GhostTextOptions> = {},
) {
  const { pool, createEngine } = fakePool({ reply: (request) => reply(beforeOf(request)), ...engine }, { size: 1 });
  await pool.load();
  const ghost = new GhostTextController(pool, { session: 'editor', text: '', ...defaults });
  // The options of one render: the defaults and what this call adds (nothing carries over from the call before).
  let extras: Partial<GhostTextOptions> = {};
  const type = (text: string, caret?: number, extra: Partial<GhostTextOptions> = {}) => {
    extras = extra;
    ghost.setOptions({ session: 'editor', ...defaults, ...extra, text, caret });
  };
  /** Presses Tab: the text with the suggestion accepted, fed back as the editor would. */
  const tab = () => {
    const accepted = ghost.accept();
    type(accepted.text, accepted.caret, extras);
    return accepted;
  };
  const calls = () => engineCalls(createEngine).map((call) => beforeOf(call.request as StreamingChatCompletionRequest));
  const jobs = () => [...pool.getSnapshot().recent, ...pool.getSnapshot().jobs];
  return { pool, createEngine, ghost, type, tab, calls, jobs };
}

describe('the suggestion cache', () => {
  it('shows the suggestion of an answered text at once after a Backspace: no debounce, no engine call', async () => {
    const { ghost, type, calls } = await setup(
      (before) => (before.endsWith('ran') ? ' away' : ' quickly'),
      { tokenMs: 10 },
      { speculate: false },
    );
    type('She ran');
    await vi.runAllTimersAsync();
    type('She ran f');
    await vi.runAllTimersAsync();
    expect(calls()).toEqual(['She ran', 'She ran f']);
    type('She ran'); // Backspace
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' away', status: 'done', fromCache: true });
    expect(vi.getTimerCount()).toBe(0);
    expect(calls()).toHaveLength(2);
    expect(ghost.stats).toMatchObject({ requests: 2, cacheHits: 1 });
  });

  it('types through a cached suggestion: its start typed again shows its rest', async () => {
    const { ghost, type, calls } = await setup(
      (before) => (before.endsWith('The') ? ' quick brown fox' : ' dog'),
      { tokenMs: 10 },
      { speculate: false },
    );
    type('The');
    await vi.runAllTimersAsync();
    type('The x');
    await vi.runAllTimersAsync();
    type('The ');
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: 'quick brown fox', fromCache: true });
    type('The qu');
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: 'ick brown fox', status: 'done' });
    type('The qx'); // off the suggestion: nothing cached fits, ask
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: '', status: 'queued' });
    expect(calls()).toEqual(['The', 'The x']);
  });

  it("never shows a suggestion for other text than the person's, whatever the edits, accepts and Backspaces", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom('a', 'b', ' ', 'Backspace', 'Tab', 'Home', 'End'), fc.constantFrom('wait', 'pause')), {
          minLength: 4,
          maxLength: 24,
        }),
        async (keys) => {
          const { ghost, type, tab } = await setup(namingReply, { prefillMs: 20, tokenMs: 15, ignoreInterrupt: true });
          let text = 'Go';
          let caret = 2;
          const wrong: string[] = [];
          /** Whether `suggestion` shown at `before` is the reply to it, or the rest of the reply to an earlier text typed through. */
          const fits = (before: string, suggestion: string) =>
            Array.from({ length: before.length + 1 }, (_, k) => k).some((k) =>
              namingReply(before.slice(0, k)).startsWith(before.slice(k) + suggestion),
            );
          const check = () => {
            const state = ghost.getSnapshot();
            if (state.suggestion && state.context && !fits(state.context.before, state.suggestion))
              wrong.push(`state ${state.context.before}|${state.suggestion}`);
            // What an editor draws for the text on screen now.
            const view = ghost.view(state, { text, caret });
            if (view.suggestion && !fits(text.slice(0, caret), view.suggestion))
              wrong.push(`view ${text.slice(0, caret)}|${view.suggestion}`);
          };
          ghost.subscribe(check);
          type(text, caret);
          for (const key of keys) {
            if (key === 'wait') await vi.advanceTimersByTimeAsync(400);
            else if (key === 'pause') await vi.advanceTimersByTimeAsync(130);
            else if (key === 'Tab') {
              ({ text, caret } = tab());
              check();
              continue;
            } else if (key === 'Backspace') {
              if (caret === 0) continue;
              text = text.slice(0, caret - 1) + text.slice(caret);
              caret -= 1;
            } else if (key === 'Home') caret = 0;
            else if (key === 'End') caret = text.length;
            else {
              text = text.slice(0, caret) + key + text.slice(caret);
              caret += 1;
            }
            type(text, caret);
            check();
          }
          await vi.runAllTimersAsync();
          check();
          ghost.dispose();
          expect(wrong).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is emptied by a model switch, another buildParams or another maxTokens', async () => {
    const { ghost, type, calls } = await setup(() => ' next', { tokenMs: 10 }, { speculate: false, model: 'a' });
    const answer = async (extra: Partial<GhostTextOptions>) => {
      type('Hello', undefined, extra);
      await vi.runAllTimersAsync();
      type('Hello!', undefined, extra);
      await vi.runAllTimersAsync();
      type('Hello', undefined, extra);
    };
    await answer({});
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' next', fromCache: true });
    expect(calls()).toHaveLength(2);
    type('Hello', undefined, { model: 'b' });
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: '', status: 'queued', fromCache: false });
    await vi.runAllTimersAsync();
    expect(calls()).toHaveLength(3);
    type('Hello!', undefined, { model: 'b', maxTokens: 12 });
    await vi.runAllTimersAsync();
    type('Hello', undefined, { model: 'b', maxTokens: 12 });
    expect(ghost.getSnapshot()).toMatchObject({ status: 'queued', fromCache: false });
    await vi.runAllTimersAsync();
    expect(calls()).toHaveLength(5);
  });

  it("keeps a reply that was in flight when the model changed out of the new model's cache", async () => {
    const { ghost, type, calls } = await setup(
      () => ' old',
      { prefillMs: 50, tokenMs: 50, ignoreInterrupt: true },
      { speculate: false, model: 'a' },
    );
    type('Hello');
    await vi.advanceTimersByTimeAsync(130); // asking under model a
    type('Hello', undefined, { model: 'b' });
    await vi.runAllTimersAsync();
    type('Hello!', undefined, { model: 'b' });
    await vi.runAllTimersAsync();
    type('Hello', undefined, { model: 'b' });
    // Model b's own reply, from its own request: the cached one, not model a's late one.
    expect(calls()).toEqual(['Hello', 'Hello', 'Hello!']);
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' old', fromCache: true });
  });
});

describe('the speculative next suggestion', () => {
  it('asks for what follows the shown suggestion at low priority, preemptible, in its own session; Tab shows it within the same tick', async () => {
    const replies: Record<string, string> = {
      'Dear Sam': ', thank you',
      'Dear Sam, thank you': ' for the notes',
      'Dear Sam, thank you for the notes': '.',
    };
    const { ghost, type, tab, jobs } = await setup((before) => replies[before] ?? '', { tokenMs: 10 });
    type('Dear Sam');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().suggestion).toBe(', thank you');
    expect(jobs().map((j) => [j.session, j.priority, j.preemptible])).toEqual([
      ['editor', 'interactive', false],
      ['editor:next', 'low', true],
    ]);
    expect(tab().text).toBe('Dear Sam, thank you');
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' for the notes', status: 'done', fromCache: true });
    await vi.runAllTimersAsync();
    expect(tab().text).toBe('Dear Sam, thank you for the notes'); // Tab, Tab: neither waited
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: '.', fromCache: true });
    expect(ghost.stats).toMatchObject({ requests: 1, cacheHits: 2 });
  });

  it('becomes the current request when Tab comes before its reply is done', async () => {
    const { ghost, type, tab, calls } = await setup((before) => (before === 'One' ? ' two' : ' three four five'), {
      prefillMs: 10,
      tokenMs: 100,
    });
    type('One');
    await vi.advanceTimersByTimeAsync(200); // ' two' shown since 130 ms; the speculation has said ' three', not yet the rest
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' two', status: 'done' });
    tab();
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' three', status: 'streaming', fromCache: false });
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' three four five', status: 'done' });
    expect(calls().slice(0, 2)).toEqual(['One', 'One two']);
  });

  it('never shows a stale speculative result: a keystroke elsewhere stops it, and its late reply stays out of sight', async () => {
    const { ghost, type, jobs } = await setup((before) => (before === 'Go' ? ' on' : before === 'Go on' ? ' and on' : ' ok'), {
      prefillMs: 30,
      tokenMs: 30,
      ignoreInterrupt: true,
    });
    const shown: string[] = [];
    ghost.subscribe(() => shown.push(`${ghost.getSnapshot().context?.before}|${ghost.getSnapshot().suggestion}`));
    type('Go');
    await vi.advanceTimersByTimeAsync(200);
    expect(ghost.getSnapshot().suggestion).toBe(' on');
    type('Go!'); // not the way to 'Go on'
    expect(jobs().find((j) => j.session === 'editor:next')).toMatchObject({ status: 'cancelled' });
    await vi.runAllTimersAsync();
    expect(shown.filter((s) => s.includes('and on'))).toEqual([]);
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' ok' });
    type('Go on'); // the speculated text, reached after it was stopped: asked again, not served from a late reply
    expect(ghost.getSnapshot().fromCache).toBe(false);
  });

  it("never delays interactive work: on a one-engine pool another editor's keystroke preempts it at once", async () => {
    const { pool, ghost, type, jobs } = await setup((before) => (before === 'Go' ? ' on' : ' and on and on and on'), {
      prefillMs: 20,
      tokenMs: 50,
    });
    type('Go');
    await vi.advanceTimersByTimeAsync(250);
    expect(pool.getSnapshot().jobs).toMatchObject([{ session: 'editor:next', state: 'running', priority: 'low' }]);
    const other = pool.submit({
      session: 'other-editor',
      priority: 'interactive',
      params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 2 },
    });
    // The scheduler's rule 3: an interactive job with no free engine interrupts a preemptible one at once...
    expect(pool.getSnapshot().jobs.find((j) => j.session === 'editor:next')?.state).toBe('cancelling');
    await vi.runAllTimersAsync();
    const result = await other;
    expect(result.status).toBe('done');
    // ...and starts as soon as the engine answers the stop: within one decode step (50 ms here), never after the speculation's reply.
    expect((result.startedAt ?? Infinity) - result.submittedAt).toBeLessThanOrEqual(50);
    expect(jobs().find((j) => j.session === 'editor:next')).toMatchObject({ status: 'preempted' });
    expect(ghost.getSnapshot().suggestion).toBe(' on'); // still shown; a preempted reply is not cached
  });

  it('waits behind normal work (a translation) and is never more than one job per session', async () => {
    const { pool, type, jobs } = await setup((before) => `${before.length % 2 ? ' ab' : ' cd'}`, { tokenMs: 10 });
    let most = 0;
    pool.subscribe(() => {
      most = Math.max(most, pool.getSnapshot().jobs.filter((j) => j.session === 'editor:next').length);
    });
    for (const text of ['A', 'A b', 'A b c', 'A b c d']) {
      type(text);
      await vi.advanceTimersByTimeAsync(160);
    }
    const translation = pool.submit({
      task: 'translate',
      priority: 'normal',
      preemptible: true,
      params: { messages: [{ role: 'user', content: 'Bonjour' }], max_tokens: 8 },
    });
    type('A b c d e');
    await vi.runAllTimersAsync();
    await translation;
    expect(most).toBe(1);
    const done = jobs().filter((j) => 'finishedAt' in j);
    const translated = done.find((j) => j.task === 'translate');
    const lastSpeculation = done.filter((j) => j.session === 'editor:next').at(-1);
    expect(lastSpeculation?.startedAt ?? 0).toBeGreaterThanOrEqual(translated?.finishedAt ?? Infinity);
  });

  it('can be turned off', async () => {
    const { ghost, type, jobs } = await setup(() => ' x', { tokenMs: 10 }, { speculate: false });
    type('Hi');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().suggestion).toBe(' x');
    expect(jobs().map((j) => j.session)).toEqual(['editor']);
  });
});

describe('refusals', () => {
  it('asks nothing with the caret mid-word, with a selection, or past maxLineSuffix; each rule can be turned off', async () => {
    const { ghost, type, calls } = await setup(() => ' x', { tokenMs: 10 }, { speculate: false });
    type('Hello world', 3); // Hel|lo
    await vi.runAllTimersAsync();
    type('Hello world', 5, { selectionStart: 0 });
    await vi.runAllTimersAsync();
    type('Hello world, again', 5, { refuse: { maxLineSuffix: 8 } });
    await vi.runAllTimersAsync();
    expect(calls()).toEqual([]);
    expect(ghost.stats.refusals).toBe(3);
    expect(ghost.getSnapshot()).toMatchObject({ status: 'idle', suggestion: '' });
    type('Hello world, again\nnext line', 5, { refuse: { maxLineSuffix: 15 } }); // only the caret's line counts
    await vi.runAllTimersAsync();
    type('Hello world', 3, { refuse: { midWord: false } });
    await vi.runAllTimersAsync();
    type('Hello world', 5, { selectionStart: 0, refuse: { selection: false } });
    await vi.runAllTimersAsync();
    expect(calls()).toEqual(['Hello', 'Hel', 'Hello']);
  });

  it('rejects a maxLineSuffix that is not a count with a typed error, leaving the controller as it was', async () => {
    const { ghost, type } = await setup(() => ' x', { tokenMs: 10 }, { speculate: false });
    type('Hi');
    await vi.runAllTimersAsync();
    expect(() => type('Hi', undefined, { refuse: { maxLineSuffix: -1 } })).toThrow(/"refuse.maxLineSuffix" must be a number of characters/);
    expect(ghost.getSnapshot().suggestion).toBe(' x');
  });
});
