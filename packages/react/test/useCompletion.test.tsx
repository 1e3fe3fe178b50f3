import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode, useState } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useChat, useCompletion, usePoolStatus } from '../src/index.js';
import { manualFrames, words } from './core/helpers.js';
import { advance, describeEachReactMode, fakePool, renderWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

let renders = 0;

function Completion({ prompt = 'Write' }: { prompt?: string }) {
  renders += 1;
  const { completion: text, status, error, finishReason, complete, stop } = useCompletion();
  return (
    <>
      <button type="button" onClick={() => void complete(prompt)}>
        Go
      </button>
      <button type="button" onClick={stop}>
        Stop
      </button>
      <output data-status={status} data-finish={finishReason ?? ''}>
        {text}
      </output>
      {error && <p role="alert">{error.message}</p>}
    </>
  );
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>Caught: {this.state.error.name}</p> : this.props.children;
  }
}

function Throwing() {
  const { complete } = useCompletion({ throwOnError: true });
  return (
    <button type="button" onClick={() => void complete('x')}>
      Go
    </button>
  );
}

function Chat() {
  const { messages, reply, status, sendMessage, stop } = useChat({ system: 'Be brief.' });
  const [draft] = useState('hello');
  return (
    <>
      <button type="button" onClick={() => void sendMessage(draft)}>
        Send
      </button>
      <button type="button" onClick={stop}>
        Stop
      </button>
      <ul>
        {messages.map((m, i) => (
          <li key={i}>{`${m.role}: ${String(m.content)}`}</li>
        ))}
      </ul>
      <output data-status={status}>{reply}</output>
    </>
  );
}

function Page() {
  usePoolStatus();
  return <Completion />;
}

const output = () => screen.getByRole('status');
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

describeEachReactMode('useCompletion', (mode) => {
  it('streams the text of one job and ends with its finish reason', async () => {
    const { pool } = fakePool({ reply: 'Once upon a time', tokenMs: 20 });
    renderWithPool(<Completion />, pool, mode);
    await user().click(screen.getByText('Go'));
    await advance(50);
    expect(output().dataset.status).toBe('streaming');
    expect(output().textContent).toBe('Once upon a');
    await settle();
    expect(output().textContent).toBe('Once upon a time');
    expect(output().dataset).toMatchObject({ status: 'done', finish: 'stop' });
  });

  it('renders about once per frame however fast tokens stream', async () => {
    const frames = manualFrames();
    const { pool } = fakePool({ reply: words(100), tokenMs: 1 });
    await pool.load();
    renderWithPool(<Completion />, pool, mode, { scheduleFrame: frames.scheduleFrame });
    await user().click(screen.getByText('Go'));
    renders = 0;
    for (let frame = 0; frame < 10; frame += 1) {
      await advance(16); // 16 tokens a frame
      act(() => frames.tick());
    }
    await settle();
    act(() => frames.tick());
    expect(output().textContent).toBe(words(100));
    const perFrame = mode.reactStrictMode ? 2 : 1; // StrictMode renders twice
    expect(renders).toBeLessThanOrEqual(12 * perFrame);
  });

  it('stop() keeps the partial text', async () => {
    const { pool } = fakePool({ reply: words(30), tokenMs: 20 });
    renderWithPool(<Completion />, pool, mode);
    await user().click(screen.getByText('Go'));
    await advance(50);
    await user().click(screen.getByText('Stop'));
    await settle();
    expect(output().dataset).toMatchObject({ status: 'cancelled', finish: 'abort' });
    expect(output().textContent).toBe('w0 w1 w2');
  });

  it('shows a failure as state, and throws it to a boundary only when asked', async () => {
    const { pool, createEngine } = fakePool({ reply: 'x' });
    await pool.load();
    createEngine.engines[0]!.failNext(new Error('context window exceeded'));
    const view = renderWithPool(<Completion />, pool, mode);
    await user().click(screen.getByText('Go'));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('context window exceeded');
    view.unmount();

    vi.spyOn(console, 'error').mockImplementation(() => {});
    createEngine.engines[0]!.failNext(new Error('again'));
    renderWithPool(
      <Boundary>
        <Throwing />
      </Boundary>,
      pool,
      mode,
    );
    await user().click(screen.getByText('Go'));
    await settle();
    expect(screen.getByText('Caught: EngineError')).toBeTruthy();
  });

  it('unmounting mid-stream cancels the job and leaves no listener or job behind', async () => {
    const { pool, listeners } = fakePool({ reply: words(50), tokenMs: 20 });
    const view = renderWithPool(<Page />, pool, mode);
    await user().click(screen.getByText('Go'));
    await advance(60);
    expect(pool.getSnapshot().running).toBe(1);
    view.unmount();
    renders = 0;
    await settle();
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0 });
    expect(pool.getSnapshot().recent.at(-1)?.status).toBe('cancelled');
    expect(listeners.active).toBe(0);
    expect(renders).toBe(0);
  });
});

describeEachReactMode('useChat', (mode) => {
  it('appends the reply to the conversation; stop() keeps what was said', async () => {
    const { pool } = fakePool({ reply: words(12), tokenMs: 20 });
    renderWithPool(<Chat />, pool, mode);
    await user().click(screen.getByText('Send'));
    await settle();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['user: hello', `assistant: ${words(12)}`]);
    await user().click(screen.getByText('Send'));
    await advance(30);
    expect(output().dataset.status).toBe('streaming');
    await user().click(screen.getByText('Stop'));
    expect(screen.getAllByRole('listitem').at(-1)?.textContent).toBe('assistant: w0 w1');
    expect(output().textContent).toBe('');
  });
});
