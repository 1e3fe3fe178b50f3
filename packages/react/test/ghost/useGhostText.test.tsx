import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type GhostEvents, type GhostTextEvent, PoolProvider, ghostEvents, useGhostText, usePoolStatus } from '../../src/index.js';
import { advance, describeEachReactMode, engineCalls, fakePool, renderWithPool, settle } from '../utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The text before the caret that a default ghost request was built from. */
function beforeOf(request: StreamingChatCompletionRequest): string {
  const user = request.messages.at(-1)?.content;
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(user))?.[1] ?? '';
}

interface Shown {
  text: string;
  suggestion: string;
}

/** A plain textarea with ghost text: Tab accepts, Ctrl+Right accepts a word, Escape dismisses. */
function Editor({ log, locale, speculate = false, events }: { log?: Shown[]; locale?: string; speculate?: boolean; events?: GhostEvents }) {
  const [text, setText] = useState('');
  // Speculation off unless a test turns it on: these tests count the interactive path's engine calls.
  const ghost = useGhostText({ session: 'notes', text, locale, speculate, events });
  log?.push({ text, suggestion: ghost.suggestion });
  return (
    <>
      <textarea
        aria-label="note"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Tab' && ghost.suggestion) {
            event.preventDefault();
            setText(ghost.accept().text);
          } else if (event.key === 'ArrowRight' && event.ctrlKey && ghost.suggestion) {
            event.preventDefault();
            setText(ghost.acceptWord().text);
          } else if (event.key === 'Escape') {
            ghost.dismiss();
          }
        }}
        onCompositionStart={() => ghost.setComposing(true)}
        onCompositionEnd={() => ghost.setComposing(false)}
      />
      <output data-testid="ghost" data-status={ghost.status}>
        {ghost.suggestion}
      </output>
      {ghost.error && <p role="alert">{ghost.error.message}</p>}
    </>
  );
}

/** A reply that names the length of the text it answers. */
const lengthReply = (before: string) => `${/\s$/.test(before) ? '' : ' '}<${before.length}> and more`;

async function setup(reply: (before: string) => string, engine: { prefillMs?: number; tokenMs?: number } = {}) {
  const made = fakePool({ reply: (request) => reply(beforeOf(request)), ...engine });
  await made.pool.load();
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  return { ...made, user };
}

const ghostText = () => screen.getByTestId('ghost').textContent;
const textarea = () => screen.getByLabelText<HTMLTextAreaElement>('note');

describeEachReactMode('useGhostText', (mode) => {
  it('shows a suggestion after the debounce, and Tab accepts it', async () => {
    const { pool, user } = await setup(() => ' jumps over', { tokenMs: 10 });
    renderWithPool(<Editor />, pool, mode);
    await user.type(textarea(), 'The fox');
    expect(screen.getByTestId('ghost').dataset.status).toBe('queued');
    await settle();
    expect(ghostText()).toBe(' jumps over');
    await user.keyboard('{Tab}');
    expect(textarea().value).toBe('The fox jumps over');
  });

  it("under fast typing only ever shows a suggestion that fits the text on screen, ending with the last keystroke's", async () => {
    const { pool, user, createEngine } = await setup(lengthReply, { prefillMs: 40, tokenMs: 30 });
    const log: Shown[] = [];
    renderWithPool(<Editor log={log} />, pool, mode);
    for (const burst of ['Once', ' upon', ' a', ' time']) {
      await user.type(textarea(), burst); // faster than the debounce
      await advance(200); // a pause: a request goes out, and is cut short by the next burst
    }
    await settle();
    expect(engineCalls(createEngine).length).toBeGreaterThan(1);
    const fits = ({ text, suggestion }: Shown) =>
      Array.from({ length: text.length + 1 }, (_, k) => k).some((k) =>
        lengthReply(text.slice(0, k)).startsWith(text.slice(k) + suggestion),
      );
    expect(log.filter((shown) => shown.suggestion && !fits(shown))).toEqual([]);
    expect(ghostText()).toBe(' <16> and more');
    // Typed within the debounce: one request for the whole burst, none per keystroke.
    expect(engineCalls(createEngine).map((c) => beforeOf(c.request as StreamingChatCompletionRequest))).toEqual([
      'Once',
      'Once upon',
      'Once upon a',
      'Once upon a time',
    ]);
  });

  it('events: what each suggestion became, stamped with the session, the provider’s modelId and the prompt builder', async () => {
    const { pool, user } = await setup(() => ' jumps over', { tokenMs: 10 });
    const events: GhostTextEvent[] = [];
    // A new ghostEvents value each render, as an app writes it inline.
    function Tracked() {
      return <Editor events={ghostEvents((event) => events.push(event))} />;
    }
    renderWithPool(<Tracked />, pool, mode, { modelId: 'qwen-1.5b' });
    await user.type(textarea(), 'The fox');
    await settle();
    await user.keyboard('{Tab}');
    const labels = { session: 'notes', model: 'qwen-1.5b', promptBuilder: 'defaultGhostParams', suggestion: 1 };
    expect(events).toMatchObject([
      { ...labels, type: 'shown', source: 'engine', characters: 11 },
      { ...labels, type: 'accepted', how: 'all', characters: 11 },
    ]);
  });

  it('types through the suggestion without a new request', async () => {
    const { pool, user, createEngine } = await setup(() => ' quick brown fox', { tokenMs: 10 });
    renderWithPool(<Editor />, pool, mode);
    await user.type(textarea(), 'The');
    await settle();
    await user.type(textarea(), ' qui');
    expect(ghostText()).toBe('ck brown fox');
    await settle();
    expect(ghostText()).toBe('ck brown fox');
    expect(engineCalls(createEngine)).toHaveLength(1);
    await user.type(textarea(), 'z');
    expect(ghostText()).toBe('');
  });

  it("shows a Backspace's suggestion from the cache at once, and Tab-Tab without waiting; a model switch empties the cache", async () => {
    const replies: Record<string, string> = { 'The fox': ' jumps', 'The fox jumps': ' over', 'The fox jumps over': ' the dog' };
    const { pool, user, createEngine } = await setup((before) => replies[before] ?? ' and', { tokenMs: 10 });
    const ui = (modelId: string) => (
      <PoolProvider pool={pool} modelId={modelId}>
        <Editor speculate />
      </PoolProvider>
    );
    const view = renderWithPool(ui('model-a'), pool, mode);
    await user.type(textarea(), 'The fox');
    await settle();
    expect(ghostText()).toBe(' jumps');
    await user.keyboard('{Tab}');
    expect(textarea().value).toBe('The fox jumps');
    expect(ghostText()).toBe(' over'); // speculated while ' jumps' was shown: no wait
    await settle();
    await user.keyboard('{Tab}');
    expect(ghostText()).toBe(' the dog');
    await settle();
    const asked = engineCalls(createEngine).length;
    await user.type(textarea(), 'X');
    await user.keyboard('{Backspace}');
    expect(ghostText()).toBe(' the dog'); // from the cache, in the same render
    await settle();
    expect(engineCalls(createEngine).length).toBe(asked); // the X came and went inside the debounce
    // Another model under the same editor: what model-a said is not shown for it.
    view.rerender(ui('model-b'));
    await user.type(textarea(), 'X');
    await user.keyboard('{Backspace}');
    expect(textarea().value).toBe('The fox jumps over');
    expect(ghostText()).toBe('');
    await settle();
    expect(ghostText()).toBe(' the dog');
    expect(engineCalls(createEngine).length).toBe(asked + 2); // asked again under model-b, and its next speculated
  });

  it('accepts one word at a time, in Japanese too', async () => {
    const { pool, user, createEngine } = await setup(() => '良い天気ですね', { tokenMs: 10 });
    renderWithPool(<Editor locale="ja" />, pool, mode);
    await user.type(textarea(), '今日は');
    await settle();
    await user.keyboard('{Control>}{ArrowRight}{/Control}');
    expect(textarea().value).toBe('今日は良い');
    expect(ghostText()).toBe('天気ですね');
    await user.keyboard('{Control>}{ArrowRight}{/Control}');
    expect(textarea().value).toBe('今日は良い天気');
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('Escape dismisses the suggestion', async () => {
    const { pool, user, createEngine } = await setup(() => ' more', { tokenMs: 10 });
    renderWithPool(<Editor />, pool, mode);
    await user.type(textarea(), 'Some');
    await settle();
    await user.keyboard('{Escape}');
    expect(ghostText()).toBe('');
    await settle();
    expect(ghostText()).toBe('');
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('asks nothing during an IME composition', async () => {
    const { pool, createEngine } = await setup(() => 'です', { tokenMs: 10 });
    renderWithPool(<Editor />, pool, mode);
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.compositionStart(textarea());
    fireEvent.change(textarea(), { target: { value: 'きょう' } });
    await settle();
    expect(engineCalls(createEngine)).toHaveLength(0);
    fireEvent.change(textarea(), { target: { value: '今日' } });
    fireEvent.compositionEnd(textarea());
    await settle();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(ghostText()).toBe('です');
  });

  it('shows an engine error as state, not a thrown error', async () => {
    const { pool, user, createEngine } = await setup(() => ' x', { tokenMs: 10 });
    createEngine.engines[0]!.failNext(new Error('GPU hiccup'));
    renderWithPool(<Editor />, pool, mode);
    await user.type(textarea(), 'Hi');
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('GPU hiccup');
    expect(screen.getByTestId('ghost').dataset.status).toBe('error');
  });

  it('unmounting mid-stream cancels the job, leaves no listener, and renders nothing more', async () => {
    const { pool, user, listeners } = await setup(() => ' a b c d e f g h', { tokenMs: 50 });
    let renders = 0;
    function Watched() {
      renders += 1;
      usePoolStatus();
      return <Editor />;
    }
    const errors = vi.spyOn(console, 'error');
    const view = renderWithPool(<Watched />, pool, mode);
    await user.type(textarea(), 'Go');
    await advance(250);
    expect(pool.getSnapshot().running).toBe(1);
    expect(ghostText()).not.toBe('');
    view.unmount();
    const after = renders;
    await settle();
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0, jobs: [] });
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ status: 'cancelled', session: 'notes' });
    expect(listeners.active).toBe(0);
    expect(renders).toBe(after);
    expect(errors).not.toHaveBeenCalled();
    await act(async () => {});
  });
});
