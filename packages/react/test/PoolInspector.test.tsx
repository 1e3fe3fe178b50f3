import { type Engine, EnginePool } from '@inkling/scheduler';
import { streamChunk, usageChunk } from '@inkling/scheduler/engine';
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { inspectPool } from '../src/core.js';
import { PoolInspector } from '../src/index.js';
import { advance, describeEachReactMode, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const jobRow = (id: string) =>
  within(screen.getByRole('table', { name: /Jobs/ }))
    .getAllByRole('row')
    .find((row) => row.querySelector('code')?.textContent === id) as HTMLElement;
const jobIds = () => [...document.querySelectorAll('.inkling-jobs tbody code')].map((code) => code.textContent);
const engineRows = () =>
  within(screen.getByRole('table', { name: 'Engines' }))
    .getAllByRole('row')
    .slice(1);
const count = (outcome: string) => document.querySelector(`.inkling-inspector-counts [data-outcome="${outcome}"]`)?.textContent;

async function setup() {
  const made = fakePool({ reply: 'one two three four five six seven eight', tokenMs: 50, prefillMs: 20 });
  await made.pool.load();
  return made;
}

/** The same prompt again and again, streamed. */
const spec = (id: string) => ({ id, params: { messages: [{ role: 'user' as const, content: 'Dear team,' }] }, onChunk: () => {} });

/** An engine that says how many prompt tokens its cache held: the second job of a prompt reuses the first's. */
function cachingEngine(): Engine {
  const seen = new Set<string>();
  const meta = { id: 'chat', model: 'cache' };
  return {
    chat: {
      completions: {
        create: async function* (request: { messages: Array<{ content?: unknown }> }) {
          const prompt = String(request.messages.at(-1)?.content);
          const cachedTokens = seen.has(prompt) ? 6 : 0;
          seen.add(prompt);
          yield streamChunk(meta, { role: 'assistant', content: 'ok' }, 'stop');
          yield usageChunk(meta, { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8, cachedTokens });
        } as unknown as Engine['chat']['completions']['create'],
      },
    },
    interruptGenerate: () => {},
  };
}

describeEachReactMode('PoolInspector', (mode) => {
  it('says the window its lanes cover before anything ran, not "Last 1 ms"', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector windowMs={10_000} />, pool, mode);
    await advance(0);
    expect(screen.getByRole('columnheader', { name: /^Last/ }).textContent).toBe('Last 10 s');
  });

  it("shows each finished job's cached prompt tokens once an engine reports them, and no column before", async () => {
    const pool = new EnginePool({ createEngine: async () => cachingEngine(), size: 1 });
    const { pool: plain } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => void pool.submit(spec('first')));
    await settle();
    act(() => void pool.submit(spec('again')));
    await settle();
    expect(within(jobRow('first')).getAllByRole('cell').at(-1)?.textContent).toBe('0');
    expect(within(jobRow('again')).getAllByRole('cell').at(-1)?.textContent).toBe('6');
    expect(screen.getByRole('columnheader', { name: /Cached/ })).toBeTruthy();
    void plain.submit({ id: 'silent', params: { messages: [{ role: 'user', content: 'x' }] } });
    await settle();
    expect(inspectPool(plain.getSnapshot(), 0).jobs[0]?.cachedTokens).toBeUndefined();
    // A pool whose engines never say has no Cached column at all.
    renderWithPool(<PoolInspector />, plain, mode);
    expect(screen.getAllByRole('table', { name: /Jobs/ }).at(-1)?.querySelectorAll('thead th')).toHaveLength(9);
  });

  it('shows what each engine runs and the queue per priority', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit({ id: 'page-1', task: 'page', params: { messages: [{ role: 'user', content: 'x' }] } });
      void pool.submit({ id: 'page-2', task: 'page', params: { messages: [{ role: 'user', content: 'x' }] } });
      void pool.submit({ id: 'bg', task: 'index', priority: 'low', params: { messages: [{ role: 'user', content: 'x' }] } });
    });
    await advance(100);
    const [engine] = engineRows();
    expect(engine?.dataset.state).toBe('busy');
    expect(engine?.textContent).toMatch(/page-1\s*page\s*normal\s*2 tok/);
    const queue = screen.getByRole('group', { name: 'Queue' });
    expect(within(queue).getByText('normal').closest('li')?.dataset.count).toBe('1');
    expect(within(queue).getByText('low').closest('li')?.dataset.count).toBe('1');
    expect(jobRow('page-2').dataset.outcome).toBe('queued');
    await settle();
    expect(engineRows()[0]?.dataset.state).toBe('idle');
    expect(count('done')).toBe('3 done');
  });

  it('lists jobs newest first, a batch submitted in one millisecond included', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      for (let n = 0; n < 4; n += 1) void pool.submit({ task: 'batch', params: { messages: [{ role: 'user', content: 'x' }] } });
    });
    await advance(100);
    expect(jobIds()).toEqual(['job-4', 'job-3', 'job-2', 'job-1']);
    await settle();
    expect(jobIds()).toEqual(['job-4', 'job-3', 'job-2', 'job-1']);
  });

  it('has a row for every engine the pool may load, and takes the focus so keys can scroll it', async () => {
    const made = fakePool({ reply: 'one two' }, { size: 3 });
    await made.pool.load();
    renderWithPool(<PoolInspector title="Pool" />, made.pool, mode);
    expect(engineRows().map((row) => row.dataset.state)).toEqual(['idle', 'unloaded', 'unloaded']);
    const panel = screen.getByRole('region', { name: 'Pool' });
    expect(panel.tabIndex).toBe(0);
  });

  it('shows a preemption: the batch item cut short for interactive work', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit({ id: 'item-1', task: 'translate', preemptible: true, params: { messages: [{ role: 'user', content: 'x' }] } });
    });
    await advance(120);
    act(() => {
      void pool.submit({
        id: 'ghost-1',
        session: 'editor',
        priority: 'interactive',
        params: { messages: [{ role: 'user', content: 'x' }] },
      });
    });
    await settle();
    expect(jobRow('item-1').dataset.outcome).toBe('preempted');
    expect(within(jobRow('item-1')).getByText('preempted')).toBeTruthy();
    expect(jobRow('ghost-1').dataset.outcome).toBe('done');
    expect(count('preempted')).toBe('1 preempted');
    const lane = document.querySelector('.inkling-lane') as HTMLElement;
    expect([...lane.children].map((block) => (block as HTMLElement).dataset.outcome)).toEqual(['done', 'preempted']);
  });

  it('shows a supersession apart from a cancel, with time to first token and tokens per second', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit({
        id: 'ghost-1',
        session: 'editor',
        priority: 'interactive',
        params: { messages: [{ role: 'user', content: 'x' }] },
      });
    });
    await advance(100);
    act(() => {
      void pool.submit({
        id: 'ghost-2',
        session: 'editor',
        priority: 'interactive',
        params: { messages: [{ role: 'user', content: 'x' }] },
      });
      void pool.submit({ id: 'other', params: { messages: [{ role: 'user', content: 'x' }] } });
    });
    act(() => pool.cancel('other'));
    await settle();
    expect(jobRow('ghost-1').dataset.outcome).toBe('superseded');
    expect(jobRow('other').dataset.outcome).toBe('cancelled');
    expect(count('superseded')).toBe('1 superseded');
    expect(count('cancelled')).toBe('1 cancelled');
    const cells = within(jobRow('ghost-2'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    // Job, task, priority, engine, outcome, wait, TTFT, tok/s, tokens
    expect(cells.slice(0, 5)).toEqual(['ghost-2', 'editor', 'interactive', '1', 'done']);
    expect(cells[8]).toBe('8');
    expect(cells[6]).toMatch(/^\d+ ms$/);
    expect(cells[7]).toMatch(/^\d+(\.\d)?$/);
  });
});

it('inspectPool works out wait, time to first token and decode speed', () => {
  const view = inspectPool(
    {
      phase: 'ready',
      loadProgress: null,
      error: null,
      size: 1,
      maxSize: 2,
      growing: false,
      growthBlocked: null,
      busy: 0,
      running: 0,
      queued: 0,
      queuedByPriority: { interactive: 0, high: 0, normal: 0, low: 0 },
      engines: [{ index: 0, state: 'idle', concurrency: 1, jobs: [] }],
      jobs: [],
      recent: [
        {
          id: 'a',
          task: 'a',
          session: undefined,
          priority: 'normal',
          kind: 'chat',
          preemptible: false,
          engineIndex: 0,
          submittedAt: 1000,
          startedAt: 1100,
          firstTokenAt: 1300,
          finishedAt: 2300,
          tokens: 21,
          status: 'done',
          cancelReason: undefined,
          error: undefined,
        },
      ],
    },
    5000,
  );
  expect(view.jobs[0]).toMatchObject({ outcome: 'done', waitMs: 100, ttftMs: 300, tokensPerSecond: 20 });
  expect(view.span).toEqual({ start: 1000, end: 2300 });
});

describeEachReactMode('PoolInspector with a shared pool', (mode) => {
  it("shows another tab's job without its tab's scope before the id and task, the tab named once", async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit({
        id: 'tab-3|job-7',
        task: 'tab-3|translate-page',
        owner: 'tab-3',
        params: { messages: [{ role: 'user', content: 'x' }] },
      });
    });
    await advance(100);
    const row = document.querySelector('.inkling-jobs tr[data-job="tab-3|job-7"]') as HTMLElement;
    expect(row.querySelector('code')?.textContent).toBe('job-7');
    expect(row.querySelector('.inkling-task')?.textContent).toBe('translate-page · tab 3');
    expect(document.body.textContent).not.toContain('tab-3|');
    await settle();
  });

  it('says nothing of sharing where no job has an owner', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit({ id: 'local', task: 'notes', params: { messages: [{ role: 'user', content: 'x' }] } });
    });
    await advance(100);
    expect(screen.queryByText(/^Shared pool/)).toBeNull();
    await settle();
  });

  it('names the tab each job came from when the snapshot has an owner, and nothing when it has none', async () => {
    const { pool } = await setup();
    renderWithPool(<PoolInspector />, pool, mode);
    act(() => {
      void pool.submit({ id: 'from-b', task: 'page', owner: 'tab-2', params: { messages: [{ role: 'user', content: 'x' }] } });
      void pool.submit({ id: 'local', task: 'notes', params: { messages: [{ role: 'user', content: 'x' }] } });
    });
    await advance(100);
    const shared = jobRow('from-b').querySelector('.inkling-task') as HTMLElement;
    expect(shared.dataset.owner).toBe('tab-2');
    expect(shared.textContent).toBe('page · tab 2');
    expect(jobRow('local').querySelector('.inkling-task')?.textContent).toBe('notes');
    expect(screen.getByText(/^Shared pool: every tab of this site/)).toBeTruthy();
    expect(inspectPool(pool.getSnapshot(), performance.now()).jobs.find((j) => j.id === 'from-b')?.owner).toBe('tab-2');
    await settle();
  });
});
