import type { Pool } from '@inkling/scheduler';
import { act, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  PoolProvider,
  useBatchTranslate,
  useChat,
  useCompletion,
  useEmbeddings,
  useGhostText,
  useModelLoad,
  usePoolStatus,
} from '../src/index.js';
import { type ReactMode, advance, describeEachReactMode, engineCalls, fakePool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Two pools whose engines answer differently, so the text says which one ran a job. */
function twoPools() {
  const a = fakePool({ reply: ' alpha and more words', tokenMs: 50, embed: () => [1, 2, 3, 4, 5] });
  const b = fakePool({ reply: ' beta', tokenMs: 5, embed: () => [1, 2, 3] }, { size: 2 });
  return { a, b };
}

/** Renders `ui(pool)` under a provider of `first`; `switchTo` gives the provider another pool. */
function mount(ui: () => ReactElement, first: Pool, mode: ReactMode, load = true) {
  const tree = (pool: Pool) => (
    <PoolProvider pool={pool} load={load} unloadDelayMs={0}>
      {ui()}
    </PoolProvider>
  );
  const view = render(tree(first), { reactStrictMode: mode.reactStrictMode });
  return { switchTo: (pool: Pool) => view.rerender(tree(pool)) };
}

/** Nothing is left running or waiting on a pool. */
function idle(pool: Pool): boolean {
  const { running, queued } = pool.getSnapshot();
  return running === 0 && queued === 0;
}

const out = () => screen.getByTestId('out');

function Completion() {
  const { completion, status, complete } = useCompletion();
  return (
    <button type="button" data-testid="out" data-status={status} onClick={() => void complete('go')}>
      {completion}
    </button>
  );
}

function Chat() {
  const { messages, status, sendMessage } = useChat();
  return (
    <button type="button" data-testid="out" data-status={status} onClick={() => void sendMessage('hi')}>
      {messages.map((m) => String(m.content)).join('|')}
    </button>
  );
}

function Ghost({ text }: { text: string }) {
  const { suggestion } = useGhostText({ session: 'notes', text, debounceMs: 0 });
  return <output data-testid="out">{suggestion}</output>;
}

function Batch() {
  const { results } = useBatchTranslate({ task: 'page', items: ['one', 'two', 'three'], to: 'fr' });
  return <output data-testid="out">{results.map((r) => `${r.status}:${r.text}`).join(',')}</output>;
}

function Embeddings() {
  const { embeddings } = useEmbeddings({ texts: ['cat'] });
  return <output data-testid="out">{embeddings?.map((v) => v.length).join(',') ?? ''}</output>;
}

function Status() {
  const { maxSize, phase } = usePoolStatus();
  return <output data-testid="out">{`${maxSize}:${phase}`}</output>;
}

function Load() {
  const { status, load } = useModelLoad();
  return (
    <button type="button" data-testid="out" onClick={() => void load()}>
      {status}
    </button>
  );
}

describeEachReactMode('switching the provider to another pool', (mode) => {
  it('moves useCompletion: the running job is cancelled, the next runs on the new pool', async () => {
    const { a, b } = twoPools();
    const view = mount(() => <Completion />, a.pool, mode);
    await settle();
    act(() => out().click());
    await advance(10);
    expect(a.pool.getSnapshot().running).toBe(1);
    view.switchTo(b.pool);
    await advance(1);
    expect(idle(a.pool)).toBe(true);
    act(() => out().click());
    await settle();
    expect(out().textContent).toBe(' beta');
    expect(out().dataset.status).toBe('done');
    expect(engineCalls(b.createEngine)).toHaveLength(1);
  });

  it('moves useChat', async () => {
    const { a, b } = twoPools();
    const view = mount(() => <Chat />, a.pool, mode);
    await settle();
    view.switchTo(b.pool);
    await settle();
    act(() => out().click());
    await settle();
    expect(out().textContent).toBe('hi| beta');
    expect(engineCalls(a.createEngine)).toHaveLength(0);
  });

  it('moves useGhostText: the next keystroke asks the new pool', async () => {
    const { a, b } = twoPools();
    let text = 'The fox';
    const view = mount(() => <Ghost text={text} />, a.pool, mode);
    await settle();
    expect(out().textContent).toBe(' alpha and more words');
    text = 'The fox ran';
    view.switchTo(b.pool);
    await settle();
    expect(out().textContent).toBe(' beta');
    expect(idle(a.pool)).toBe(true);
  });

  it('moves useBatchTranslate: items in flight are cancelled there and translated on the new pool', async () => {
    const { a, b } = twoPools();
    const view = mount(() => <Batch />, a.pool, mode);
    await advance(10);
    expect(a.pool.getSnapshot().running).toBe(1);
    view.switchTo(b.pool);
    await settle();
    expect(out().textContent).toBe('done:beta,done:beta,done:beta');
    expect(idle(a.pool)).toBe(true);
  });

  it('moves useEmbeddings', async () => {
    const { a, b } = twoPools();
    const view = mount(() => <Embeddings />, a.pool, mode);
    await settle();
    expect(out().textContent).toBe('5');
    view.switchTo(b.pool);
    await settle();
    expect(out().textContent).toBe('3');
  });

  it('moves usePoolStatus', async () => {
    const { a, b } = twoPools();
    const view = mount(() => <Status />, a.pool, mode);
    await settle();
    expect(out().textContent).toBe('1:ready');
    view.switchTo(b.pool);
    await settle();
    expect(out().textContent).toBe('2:ready');
  });

  it('moves useModelLoad: load() loads the new pool', async () => {
    const { a, b } = twoPools();
    const view = mount(() => <Load />, a.pool, mode, false);
    view.switchTo(b.pool);
    await settle();
    act(() => out().click());
    await settle();
    expect(out().textContent).toBe('ready');
    expect(b.pool.getSnapshot().phase).toBe('ready');
    expect(a.pool.getSnapshot().phase).toBe('idle');
  });
});
