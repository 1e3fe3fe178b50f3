/**
 * One scene: a component streams 500 tokens from a fake engine at 200
 * tokens/s inside React's `<Profiler>`, on a virtual clock with a simulated
 * 60 Hz frame clock, and we count the commits it causes.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { EnginePool, type FrameScheduler, PoolProvider, useCompletion, useGhostText } from '@inkling/react';
import { fakeEngines } from '@inkling/scheduler/testing';
import { Window } from 'happy-dom';
import { Profiler, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useNaiveCompletion } from './naiveCompletion.js';

export const TOKENS = 500;
export const TOKENS_PER_SECOND = 200;
const FRAME_MS = 1000 / 60;

export type SceneKind = 'useCompletion' | 'useGhostText' | 'naive useState per chunk';

export interface SceneResult {
  scene: SceneKind;
  tokens: number;
  /** Virtual time from the first token to the last, ms. */
  streamMs: number;
  /** Frames of the simulated 60 Hz clock in that time. */
  frames: number;
  /** `<Profiler>` commits of the streaming component while it streamed. */
  renders: number;
  rendersPerToken: number;
  rendersPerFrame: number;
  /** Time React spent rendering it (development build, real clock), ms. */
  renderMs: number;
  /** The text shown at the end was the whole reply. */
  complete: boolean;
}

const reply = Array.from({ length: TOKENS }, (_, i) => `t${i}`).join(' ');

type Start = () => void;

function CompletionView({ onStart }: { onStart: (start: Start) => void }) {
  const { completion: text, complete } = useCompletion();
  useEffect(() => onStart(() => void complete('go')), [onStart, complete]);
  return <p data-length={text.length}>{text}</p>;
}

function NaiveView({ onStart }: { onStart: (start: Start) => void }) {
  const { text, complete } = useNaiveCompletion();
  useEffect(() => onStart(() => complete('go')), [onStart, complete]);
  return <p data-length={text.length}>{text}</p>;
}

function GhostView({ text }: { text: string }) {
  const { suggestion } = useGhostText({ session: 'editor', text, maxTokens: TOKENS + 10, debounceMs: 0 });
  return (
    <p>
      {text}
      <span>{suggestion}</span>
    </p>
  );
}

/** Lets React's scheduler (real `setImmediate`) and microtasks run. */
async function realTurns(n = 5): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

export async function runScene(scene: SceneKind): Promise<SceneResult> {
  const window = new Window();
  Object.assign(globalThis, { window, document: window.document, IS_REACT_ACT_ENVIRONMENT: false });
  // Fake only the timers and Date: React's scheduler keeps its real
  // setImmediate, so React renders exactly as it would in a page.
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  try {
    const createEngine = fakeEngines({ reply, tokenMs: 1000 / TOKENS_PER_SECOND });
    const pool = new EnginePool({ createEngine, size: 1, now: () => Date.now() }); // job timings on the virtual clock
    await pool.load();
    // Frame k starts at round(k * 16.67) ms: whole milliseconds, as the fake clock keeps them.
    const scheduleFrame: FrameScheduler = (callback) => {
      let frame = Math.floor(clock.now / FRAME_MS) + 1;
      while (Math.round(frame * FRAME_MS) <= clock.now) frame += 1;
      const handle = clock.setTimeout(callback, Math.round(frame * FRAME_MS) - clock.now);
      return () => clock.clearTimeout(handle);
    };

    let renders = 0;
    let renderMs = 0;
    let start: Start | undefined;
    const onStart = (fn: Start) => {
      start = fn;
    };
    const container = window.document.createElement('div');
    window.document.body.append(container);
    const root = createRoot(container as unknown as HTMLElement);
    const view =
      scene === 'useCompletion' ? (
        <CompletionView onStart={onStart} />
      ) : scene === 'useGhostText' ? (
        <GhostView text="Once" />
      ) : (
        <NaiveView onStart={onStart} />
      );
    root.render(
      <PoolProvider pool={pool} load={false} scheduleFrame={scheduleFrame}>
        <Profiler
          id={scene}
          onRender={(_id, _phase, actualDuration) => {
            renders += 1;
            renderMs += actualDuration;
          }}
        >
          {view}
        </Profiler>
      </PoolProvider>,
    );
    await realTurns();
    await clock.tickAsync(0);
    await realTurns();
    renders = 0;
    renderMs = 0;
    start?.();
    await clock.tickAsync((TOKENS / TOKENS_PER_SECOND) * 1000 + 1000);
    await realTurns();
    const record = pool.getSnapshot().recent.at(-1);
    const streamMs = record && record.firstTokenAt !== undefined ? record.finishedAt - record.firstTokenAt : Number.NaN;
    const frames = Math.round(streamMs / FRAME_MS);
    const shown = container.textContent ?? '';
    root.unmount();
    await pool.unload();
    return {
      scene,
      tokens: TOKENS,
      streamMs,
      frames,
      renders,
      rendersPerToken: renders / TOKENS,
      rendersPerFrame: renders / frames,
      renderMs,
      complete: shown.endsWith(`t${TOKENS - 1}`),
    };
  } finally {
    clock.uninstall();
  }
}
