import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentProps, createRef, useState } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextarea, type GhostTextareaProps } from '../../src/index.js';
import { advance, describeEachReactMode, engineCalls, fakePool, renderWithPool, settle } from '../utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function beforeOf(request: StreamingChatCompletionRequest): string {
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(request.messages.at(-1)?.content))?.[1] ?? '';
}

async function setup(reply: (before: string) => string = () => ' jumps over the dog') {
  const made = fakePool({ reply: (request) => reply(beforeOf(request)), tokenMs: 10 });
  await made.pool.load();
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  return { ...made, user };
}

const textarea = () => screen.getByLabelText<HTMLTextAreaElement>('Note');
const root = () => textarea().parentElement as HTMLElement;
const overlay = () => root().querySelector<HTMLElement>('[data-inkling-overlay]') as HTMLElement;
const ghost = () => root().querySelector<HTMLElement>('[data-inkling-ghost]');

// Speculation off unless a test turns it on: these tests count the interactive path's engine calls.
function Form(props: Partial<ComponentProps<typeof GhostTextarea>>) {
  return (
    <>
      <button type="button">Before</button>
      <GhostTextarea aria-label="Note" speculate={false} {...props} />
      <button type="button">After</button>
    </>
  );
}

function Controlled(props: Partial<GhostTextareaProps>) {
  const [text, setText] = useState('');
  return (
    <>
      <GhostTextarea aria-label="Note" speculate={false} value={text} onChange={(event) => setText(event.target.value)} {...props} />
      <output data-testid="parent">{text}</output>
    </>
  );
}

describeEachReactMode('GhostTextarea', (mode) => {
  it('shows the suggestion after the caret, and Tab accepts it (uncontrolled)', async () => {
    const { pool, user } = await setup();
    renderWithPool(<Form defaultValue="" />, pool, mode);
    await user.type(textarea(), 'The fox');
    expect(root().dataset.state).toBe('queued');
    await settle();
    expect(ghost()?.textContent).toBe(' jumps over the dog');
    expect(root().dataset).toMatchObject({ state: 'done', hasSuggestion: 'true' });
    expect(textarea().dataset.state).toBe('done');
    await user.keyboard('{Tab}');
    expect(textarea().value).toBe('The fox jumps over the dog');
    expect(textarea().selectionStart).toBe('The fox jumps over the dog'.length);
    expect(document.activeElement).toBe(textarea());
    expect(ghost()).toBeNull();
  });

  it('starts from defaultValue and hands an accepted suggestion to a controlled onChange', async () => {
    const { pool, user } = await setup();
    renderWithPool(<Controlled />, pool, mode);
    await user.type(textarea(), 'Hi');
    await settle();
    await user.keyboard('{Tab}');
    expect(screen.getByTestId('parent').textContent).toBe('Hi jumps over the dog');
    expect(textarea().value).toBe('Hi jumps over the dog');
  });

  it('Tab moves focus as usual when no suggestion is visible, and Shift+Tab is never taken', async () => {
    const { pool, user } = await setup();
    renderWithPool(<Form />, pool, mode);
    await user.click(textarea());
    await user.keyboard('{Tab}');
    expect(document.activeElement).toBe(screen.getByText('After'));
    await user.type(textarea(), 'The fox');
    await settle();
    expect(ghost()?.textContent).toBe(' jumps over the dog');
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(screen.getByText('Before'));
    expect(textarea().value).toBe('The fox');
  });

  it('Ctrl+ArrowRight and Alt+ArrowRight accept one word at a time', async () => {
    const { pool, user, createEngine } = await setup();
    renderWithPool(<Form />, pool, mode);
    await user.type(textarea(), 'The fox');
    await settle();
    await user.keyboard('{Control>}{ArrowRight}{/Control}');
    expect(textarea().value).toBe('The fox jumps');
    expect(ghost()?.textContent).toBe(' over the dog');
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(textarea().value).toBe('The fox jumps over');
    expect(ghost()?.textContent).toBe(' the dog');
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('Escape dismisses the suggestion and asks nothing more', async () => {
    const { pool, user, createEngine } = await setup();
    renderWithPool(<Form />, pool, mode);
    await user.type(textarea(), 'Some');
    await settle();
    expect(ghost()).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(ghost()).toBeNull();
    expect(root().dataset.hasSuggestion).toBeUndefined();
    await settle();
    expect(ghost()).toBeNull();
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('never asks or accepts during an IME composition', async () => {
    const { pool, user, createEngine } = await setup(() => 'です');
    renderWithPool(<Form />, pool, mode);
    await user.click(textarea());
    fireEvent.compositionStart(textarea());
    fireEvent.change(textarea(), { target: { value: 'きょう' } });
    await settle();
    expect(engineCalls(createEngine)).toHaveLength(0);
    fireEvent.change(textarea(), { target: { value: '今日' } });
    fireEvent.compositionEnd(textarea());
    await settle();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(ghost()?.textContent).toBe('です');
    // A Tab that an IME is handling (a new composition) is the IME's.
    fireEvent.compositionStart(textarea());
    fireEvent.keyDown(textarea(), { key: 'Tab', isComposing: true });
    expect(textarea().value).toBe('今日');
    // Keys a browser does not mark as composing: nothing is shown, so Tab takes nothing and Escape dismisses nothing.
    expect(ghost()).toBeNull();
    fireEvent.keyDown(textarea(), { key: 'Tab' });
    fireEvent.keyDown(textarea(), { key: 'Escape' });
    fireEvent.compositionEnd(textarea());
    await settle();
    expect(textarea().value).toBe('今日');
    expect(ghost()?.textContent).toBe('です');
  });

  it('renders a suggestion as text, never as HTML', async () => {
    const { pool, user } = await setup(() => ' <b>bold</b> <img src=x onerror=alert(1)>');
    renderWithPool(<Form />, pool, mode);
    await user.type(textarea(), 'Say');
    await settle();
    expect(ghost()?.textContent).toBe(' <b>bold</b> <img src=x onerror=alert(1)>');
    expect(overlay().querySelector('b, img')).toBeNull();
  });

  it('is an inline autocomplete: the ghost hidden from assistive technology, the settled suggestion read out once and kept as the description', async () => {
    const { pool, user } = await setup(() => ' jumps over the lazy dog');
    renderWithPool(<Form announceDelayMs={500} aria-describedby="hint" />, pool, mode);
    expect(textarea().getAttribute('aria-autocomplete')).toBe('inline');
    expect(overlay().getAttribute('aria-hidden')).toBe('true');
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    const changes: string[] = [];
    new MutationObserver(() => changes.push(status.textContent ?? '')).observe(status, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    await user.type(textarea(), 'The fox');
    await advance(130); // debounce over, the suggestion streaming token by token
    expect(root().dataset.state).toBe('streaming');
    expect(status.textContent).toBe('');
    await advance(300); // complete, not yet settled
    expect(ghost()?.textContent).toBe(' jumps over the lazy dog');
    expect(status.textContent).toBe('');
    await advance(600);
    // What it says, and how to accept it, by key or by a tap; said once, not once a token.
    expect(status.textContent).toBe(
      'Suggestion: jumps over the lazy dog. Press Tab or tap the suggestion to accept it, Control or Alt plus Right Arrow to accept one word, Alt plus F2 to hear it again, Escape to dismiss.',
    );
    expect(changes.filter(Boolean)).toHaveLength(1);
    expect(textarea().getAttribute('aria-describedby')).toBe(`hint ${status.id}`);
    await user.keyboard('{Escape}');
    expect(status.textContent).toBe('');
    expect(textarea().getAttribute('aria-describedby')).toBe('hint');
  });

  it('says how to accept once after the focus comes, then only "Suggestion: …"; again after the focus leaves and returns', async () => {
    let replies = 0;
    const { pool, user } = await setup(() => (replies++ === 0 ? ' jumps over the lazy dog' : ' runs far away'));
    renderWithPool(<Form />, pool, mode);
    const status = screen.getByRole('status');
    await user.type(textarea(), 'The fox');
    await advance(1100);
    expect(status.textContent).toMatch(/^Suggestion: jumps over the lazy dog\. Press Tab/);
    await user.keyboard('{Escape}');
    await user.type(textarea(), ' and');
    await advance(1100);
    expect(status.textContent).toBe('Suggestion: runs far away.');
    await user.click(document.body);
    await user.click(textarea());
    await user.keyboard('{End} it');
    await advance(1100);
    expect(status.textContent).toMatch(/^Suggestion: runs far away\. Press Tab/);
  });

  it('reads the suggestion out again on Alt+F2, and leaves Alt+F2 alone without one', async () => {
    const { pool, user } = await setup(() => ' over the dog');
    renderWithPool(
      <Form announceDelayMs={Infinity} messages={{ suggestion: (text) => `Vorschlag: ${text.trim()}`, available: 'Tab.' }} />,
      pool,
      mode,
    );
    const status = screen.getByRole('status');
    await user.keyboard('{Alt>}{F2}{/Alt}');
    expect(status.textContent).toBe('');
    await user.type(textarea(), 'The fox');
    await settle();
    expect(ghost()).not.toBeNull();
    expect(status.textContent).toBe(''); // Infinity: never on its own
    await user.keyboard('{Alt>}{F2}{/Alt}');
    expect(status.textContent).toBe('Vorschlag: over the dog Tab.');
    await user.keyboard('{Alt>}{F2}{/Alt}');
    // Said again: the text changes (by an invisible space) so a screen reader reads it once more.
    expect(status.textContent?.trim()).toBe('Vorschlag: over the dog Tab.');
    expect(status.textContent).not.toBe('Vorschlag: over the dog Tab.');
    expect(textarea().value).toBe('The fox');
  });

  it("draws the overlay as text before the caret, the ghost, and text after it, in the textarea's style", async () => {
    const { pool, user } = await setup((before) => (before === 'Hello' ? ' big' : ' there'));
    renderWithPool(
      <Form
        style={{ fontSize: '17px', lineHeight: '23px', letterSpacing: '1px', padding: '9px 11px', fontFamily: 'Georgia' }}
        defaultValue="Hello world"
      />,
      pool,
      mode,
    );
    await user.click(textarea());
    textarea().setSelectionRange(5, 5);
    fireEvent.select(textarea());
    await settle();
    // Mirrored by the time a suggestion is drawn (the first sync waits for layout, not for the render).
    const style = overlay().style;
    expect(style).toMatchObject({
      fontSize: '17px',
      lineHeight: '23px',
      letterSpacing: '1px',
      paddingTop: '9px',
      paddingLeft: '11px',
      fontFamily: 'Georgia',
    });
    expect(style).toMatchObject({
      position: 'absolute',
      pointerEvents: 'none',
      whiteSpace: 'pre-wrap',
      overflowWrap: 'break-word',
      borderStyle: 'solid',
    });
    const parts = [...overlay().childNodes].map((node) => [(node as HTMLElement).className, node.textContent]);
    expect(parts).toEqual([
      ['', 'Hello'],
      ['inkling-ghost', ' big'],
      ['', ' world'],
    ]);
    // Mid-text the overlay draws the text, so the rest moves aside for the ghost; the textarea keeps its caret.
    expect((overlay().firstChild as HTMLElement).style.color).toContain('--inkling-text-color');
    expect(textarea().style.color).toBe('transparent');
    await user.keyboard('{Tab}');
    expect(textarea().value).toBe('Hello big world');
    expect(textarea().selectionStart).toBe(9);
    expect(textarea().style.color).toBe('');
  });

  it('keeps the overlay scrolled with the textarea', async () => {
    const { pool } = await setup();
    renderWithPool(<Form defaultValue={'line\n'.repeat(50)} rows={2} />, pool, mode);
    textarea().scrollTop = 40;
    fireEvent.scroll(textarea());
    expect(overlay().scrollTop).toBe(40);
  });

  it('a tap on the ghost accepts it and keeps the focus in the textarea', async () => {
    const { pool, user } = await setup();
    renderWithPool(<Form />, pool, mode);
    await user.type(textarea(), 'The fox');
    await settle();
    await user.click(ghost() as HTMLElement);
    expect(textarea().value).toBe('The fox jumps over the dog');
    expect(document.activeElement).toBe(textarea());
  });

  it('forwards its ref and textarea props, and lets an onKeyDown that prevents default keep the key', async () => {
    const { pool, user } = await setup();
    const ref = createRef<HTMLTextAreaElement>();
    const onAccept = vi.fn();
    let prevent = true;
    renderWithPool(
      <Form
        ref={ref}
        rows={7}
        placeholder="Write"
        className="mine"
        onAccept={onAccept}
        onKeyDown={(event) => {
          if (prevent && event.key === 'Tab') event.preventDefault();
        }}
      />,
      pool,
      mode,
    );
    expect(ref.current).toBe(textarea());
    expect(['rows', 'placeholder', 'class'].map((name) => textarea().getAttribute(name))).toEqual(['7', 'Write', 'mine']);
    await user.type(textarea(), 'The fox');
    await settle();
    await user.keyboard('{Tab}');
    expect(textarea().value).toBe('The fox');
    prevent = false;
    await user.keyboard('{Tab}');
    expect(textarea().value).toBe('The fox jumps over the dog');
    expect(onAccept).toHaveBeenCalledWith(' jumps over the dog', 'all');
  });

  it('suggests only while focused, with no selection, and not when suggest is false', async () => {
    const { pool, user, createEngine } = await setup();
    const view = renderWithPool(<Form defaultValue="The fox" />, pool, mode);
    await settle();
    expect(engineCalls(createEngine)).toHaveLength(0);
    await user.click(textarea());
    await settle();
    expect(ghost()).not.toBeNull();
    await user.tab();
    expect(ghost()).toBeNull();
    view.rerender(<Form defaultValue="The fox" suggest={false} />);
    await user.click(textarea());
    await settle();
    expect(ghost()).toBeNull();
    // The Tab accepted the suggestion, and the accepted text is asked for at once (no debounce after a Tab), before focus left.
    expect(engineCalls(createEngine).map((c) => beforeOf(c.request as StreamingChatCompletionRequest))).toEqual([
      'The fox',
      'The fox jumps over the dog',
    ]);
    await act(async () => {});
  });
  it('says in a status line tied to the textarea why suggestions failed, and typing goes on', async () => {
    const { pool, user, createEngine } = await setup();
    renderWithPool(<Form aria-describedby="hint" />, pool, mode);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('');
    expect(textarea().getAttribute('aria-describedby')).toBe('hint');
    createEngine.engines[0]?.failNext(new Error('The model ran out of memory.'));
    await user.type(textarea(), 'The fox');
    await settle();
    expect(root().dataset.state).toBe('error');
    expect(alert.textContent).toBe('Suggestions are unavailable: The engine failed on this job: The model ran out of memory.');
    expect(textarea().getAttribute('aria-describedby')).toBe(`hint ${alert.id}`);
    expect(textarea().value).toBe('The fox');
    // The next request works: the line empties and the textarea is no longer described by it.
    await user.type(textarea(), ' jumps');
    await settle();
    expect(ghost()?.textContent).toBe(' over the dog');
    expect(alert.textContent).toBe('');
    expect(textarea().getAttribute('aria-describedby')).not.toContain(alert.id);
  });

  it('words the failure with messages.error', async () => {
    const { pool, user, createEngine } = await setup();
    renderWithPool(<Form messages={{ error: (error) => `Pas de suggestions : ${error.message}` }} />, pool, mode);
    createEngine.engines[0]?.failNext(new Error('panne'));
    await user.type(textarea(), 'Le');
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('Pas de suggestions : The engine failed on this job: panne');
    expect(textarea().getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
  });
});
