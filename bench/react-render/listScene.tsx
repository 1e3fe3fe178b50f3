/**
 * One list scene: `<TranslateList>` (so `useBatchTranslate`) translates
 * `items` strings on a fast fake engine, on a virtual clock with a simulated
 * 60 Hz frame clock, and we time the main thread from the first render to
 * the render that shows the batch done. A list that scales linearly costs the
 * same per item at 200 items as at 2,000.
 *
 * Time is the process's CPU time (`process.cpuUsage`, user + system): on a
 * shared machine, wall time also counts other processes' turns. Nothing here
 * waits on real time, so the CPU time is the main thread's work plus the
 * garbage collector's.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { EnginePool, type FrameScheduler, PoolProvider, TranslateList } from '@inkling/react';
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { Window } from 'happy-dom';
import { Profiler } from 'react';
import { createRoot } from 'react-dom/client';

const FRAME_MS = 1000 / 60;
/** A fast engine: a millisecond a token, no prefill (a server with a warm cache, a small model on a big GPU). */
export const LIST_TOKEN_MS = 1;

export interface ListSceneResult {
  items: number;
  /** CPU time from the first render to the batch shown done, ms. */
  totalMs: number;
  perItemMs: number;
  /** Wall-clock time of the same, ms (inflated by anything else the machine runs). */
  wallMs: number;
  /** `<Profiler>` commits of the list in that time. */
  renders: number;
  /** Virtual time the batch took, ms (the engine's pace, the same per item at any size). */
  virtualMs: number;
  /** Every row showed its translation at the end. */
  complete: boolean;
}

const translate = (request: StreamingChatCompletionRequest) => String(request.messages.at(-1)?.content).toUpperCase();

/** Lets React's scheduler (real `setImmediate`) and microtasks run. */
async function realTurns(n = 2): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

export async function runListScene(count: number): Promise<ListSceneResult> {
  const window = new Window();
  Object.assign(globalThis, { window, document: window.document, IS_REACT_ACT_ENVIRONMENT: false });
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  try {
    const pool = new EnginePool({
      createEngine: fakeEngines({ reply: translate, tokenMs: LIST_TOKEN_MS }),
      size: 1,
      now: () => Date.now(),
    });
    await pool.load();
    const scheduleFrame: FrameScheduler = (callback) => {
      let frame = Math.floor(clock.now / FRAME_MS) + 1;
      while (Math.round(frame * FRAME_MS) <= clock.now) frame += 1;
      const handle = clock.setTimeout(callback, Math.round(frame * FRAME_MS) - clock.now);
      return () => clock.clearTimeout(handle);
    };
    const items = Array.from({ length: count }, (_, i) => `item ${i} of the page`);
    const container = window.document.createElement('div');
    window.document.body.append(container);
    const root = createRoot(container as unknown as HTMLElement);
    let renders = 0;
    const startedAt = clock.now;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    root.render(
      <PoolProvider pool={pool} load={false} scheduleFrame={scheduleFrame}>
        <Profiler id="list" onRender={() => void (renders += 1)}>
          <TranslateList items={items} to="fr" />
        </Profiler>
      </PoolProvider>,
    );
    const status = () => container.querySelector('.inkling-translate-list')?.getAttribute('data-status');
    await realTurns();
    // One virtual frame at a time, letting React run between frames as a page would.
    for (let guard = 0; status() !== 'done' && guard < 1_000_000; guard += 1) {
      await clock.tickAsync(FRAME_MS);
      await realTurns();
    }
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const totalMs = (cpu.user + cpu.system) / 1000;
    const virtualMs = clock.now - startedAt;
    const cells = [...container.querySelectorAll('tbody tr')].map((row) => row.children[1]?.textContent);
    const complete = cells.length === count && cells.every((text, i) => text === (items[i] as string).toUpperCase());
    root.unmount();
    await pool.unload();
    return { items: count, totalMs, perItemMs: totalMs / count, wallMs, renders, virtualMs, complete };
  } finally {
    clock.uninstall();
  }
}
