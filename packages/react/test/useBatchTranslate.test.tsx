import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PoolProvider, type TranslationResult, inklingKeys, useBatchTranslate, useGhostText } from '../src/index.js';
import { advance, describeEachReactMode, engineCalls, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The fake "translation": the source upper-cased (the ghost prompt gets a fixed reply). */
function reply(request: StreamingChatCompletionRequest): string {
  const last = String(request.messages.at(-1)?.content);
  return last.startsWith('<before_cursor>') ? ' ghost' : last.toUpperCase();
}

const ITEMS = ['one two three four five six', 'seven eight nine', 'ten eleven'];

function Translator({ items = ITEMS, log }: { items?: string[]; log?: TranslationResult[][] }) {
  const { results, progress, status, cancel, retry } = useBatchTranslate({ task: 'page', items, to: 'fr' });
  log?.push([...results]);
  return (
    <section>
      <p data-testid="batch" data-status={status}>
        {progress.done}/{progress.total}
      </p>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      <button type="button" onClick={retry}>
        Retry
      </button>
      <ol>
        {results.map((r, i) => (
          <li key={i} data-status={r.status}>
            {r.status === 'done' ? r.text : r.source}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Editor() {
  const [text, setText] = useState('');
  const ghost = useGhostText({ session: 'notes', text });
  return (
    <>
      <textarea aria-label="note" value={text} onChange={(e) => setText(e.target.value)} />
      <output data-testid="ghost">{ghost.suggestion}</output>
    </>
  );
}

function Toggle({ children }: { children: React.ReactNode }) {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown((s) => !s)}>
        Toggle
      </button>
      {shown && children}
    </>
  );
}

const items = () => screen.getAllByRole('listitem').map((li) => [li.textContent, li.dataset.status]);
const batch = () => screen.getByTestId('batch');

describeEachReactMode('useBatchTranslate', (mode) => {
  it('translates every item and reports progress', async () => {
    const { pool, createEngine } = fakePool({ reply, tokenMs: 10 });
    renderWithPool(<Translator />, pool, mode);
    await advance(0);
    expect(batch().dataset.status).toBe('streaming');
    await settle();
    expect(items()).toEqual(ITEMS.map((s) => [s.toUpperCase(), 'done']));
    expect(batch().textContent).toBe('3/3');
    expect(engineCalls(createEngine)).toHaveLength(3);
  });

  it('lets ghost text preempt an item, resubmits it at once, and never shows it done with partial text', async () => {
    const { pool, createEngine } = fakePool({ reply, tokenMs: 50 });
    const log: TranslationResult[][] = [];
    renderWithPool(
      <>
        <Editor />
        <Translator log={log} />
      </>,
      pool,
      mode,
    );
    await advance(70); // the first item is under way; the ghost request comes in ~120 ms
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).type(screen.getByLabelText('note'), 'Hi');
    await settle();
    expect(screen.getByTestId('ghost').textContent).toBe(' ghost');
    expect(pool.getSnapshot().recent.filter((r) => r.status === 'preempted')).toHaveLength(1);
    expect(items()).toEqual(ITEMS.map((s) => [s.toUpperCase(), 'done']));
    const first = engineCalls(createEngine).filter(
      (c) => String((c.request as StreamingChatCompletionRequest).messages.at(-1)?.content) === ITEMS[0],
    );
    expect(first).toHaveLength(2);
    const wrong = log.flat().filter((r) => r.status === 'done' && r.text !== r.source.toUpperCase());
    expect(wrong).toEqual([]);
  });

  it('shows cached items at once after a remount, without an engine call', async () => {
    const { pool, createEngine } = fakePool({ reply, tokenMs: 10 });
    const log: TranslationResult[][] = [];
    renderWithPool(
      <Toggle>
        <Translator log={log} />
      </Toggle>,
      pool,
      mode,
    );
    await settle();
    const calls = engineCalls(createEngine).length;
    const toggle = screen.getByText('Toggle');
    act(() => toggle.click());
    log.length = 0;
    act(() => toggle.click());
    expect(log[0]?.map((r) => r.status)).toEqual(['done', 'done', 'done']);
    await settle();
    expect(engineCalls(createEngine)).toHaveLength(calls);
  });

  it('costs one engine call for a string repeated in the list', async () => {
    const { pool, createEngine } = fakePool({ reply, tokenMs: 10 });
    renderWithPool(<Translator items={['hi', 'hi', 'bye', 'hi']} />, pool, mode);
    await settle();
    expect(items().map(([text]) => text)).toEqual(['HI', 'HI', 'BYE', 'HI']);
    expect(engineCalls(createEngine)).toHaveLength(2);
  });

  it("caches in the app's QueryClient, keyed by model, languages and text", async () => {
    const { pool } = fakePool({ reply, tokenMs: 10 });
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <PoolProvider pool={pool} modelId="tiny-model">
          <Translator items={['good day']} />
        </PoolProvider>
      </QueryClientProvider>,
      { reactStrictMode: mode.reactStrictMode },
    );
    await advance(1000); // not settle(): that would run the client's 5-minute garbage collection too
    expect(queryClient.getQueryData(inklingKeys.translation('tiny-model', undefined, 'fr', 'good day'))).toBe('GOOD DAY');
  });

  it('shows a failed item as an error; retry() runs it again', async () => {
    const { pool, createEngine } = fakePool({ reply, tokenMs: 10 });
    await pool.load();
    createEngine.engines[0]!.failNext(new Error('bad request'));
    renderWithPool(<Translator />, pool, mode);
    await settle();
    expect(items()[0]).toEqual([ITEMS[0], 'error']);
    expect(batch().dataset.status).toBe('error');
    act(() => screen.getByText('Retry').click());
    await settle();
    expect(batch().dataset.status).toBe('done');
  });

  it('unmounting mid-batch cancels what is left and leaves no job behind', async () => {
    const { pool } = fakePool({ reply, tokenMs: 20 });
    const view = renderWithPool(<Translator />, pool, mode);
    await advance(50);
    view.unmount();
    await settle();
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0, jobs: [] });
    expect(pool.getSnapshot().recent.filter((r) => r.status === 'cancelled').length).toBeGreaterThan(0);
  });
});
