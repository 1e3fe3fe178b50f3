/**
 * The scene the kit exists for: a page translation of 200 items runs while a
 * person types into a ghost-text field. Fake engines with realistic timings
 * (prefill 80 ms, 30 tokens/s) on a virtual clock, so a run takes seconds and
 * repeats exactly. What it measures is the scheduling policy (who waits for
 * whom), not CPU cost: `overhead.ts` measures that, in real time.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { EnginePool } from '@inkling/scheduler';
import type { ChatCompletionRequest } from '@inkling/scheduler';
import { createFakeEngine, fakeEngines } from '@inkling/scheduler/testing';
import { percentile, seeded } from '../shared/stats.js';

export const TIMINGS = { prefillMs: 80, tokenMs: 1000 / 30, loadMs: 3000 } as const;
const ITEMS = 200;
const GHOST_TOKENS = 24;
const KEY_INTERVAL_MS = 125; // 8 keys/s
const IDLE_SESSION_MS = 60_000;

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
const reply = (request: ChatCompletionRequest) =>
  String(request.messages.at(-1)?.content).startsWith('ghost') ? words(32, 'g') : words(20, 'w');

export type SceneKind = 'idle' | 'inkling-1' | 'inkling-2' | 'baseline' | 'inkling-1-no-wait';

export interface SceneResult {
  scene: SceneKind;
  label: string;
  /** Keystroke-to-first-token of the last keystroke of each pause, ms. */
  p50Ms: number;
  p95Ms: number;
  /** Pauses measured, and how many of them got their suggestion at all. */
  pauses: number;
  answered: number;
  itemsPerSecond: number | null;
  preemptions: number;
  engines: number;
}

interface Keystroke {
  at: number;
  endsBurst: boolean;
}

/** Bursts of 3..10 keys at 8 keys/s, then a pause of 0.7..2 s, from a fixed seed. */
function typingPlan(seed: number, untilMs: number): Keystroke[] {
  const random = seeded(seed);
  const keys: Keystroke[] = [];
  let t = 500;
  while (t < untilMs) {
    const burst = 3 + Math.floor(random() * 8);
    for (let i = 0; i < burst; i += 1) {
      keys.push({ at: t, endsBurst: i === burst - 1 });
      t += KEY_INTERVAL_MS;
    }
    t += 700 + random() * 1300;
  }
  return keys;
}

interface Driver {
  /** Starts the translation; resolves when every item is done. */
  translate(): Promise<void>;
  /** Sends one keystroke's request; `onFirstToken` fires if its suggestion starts. */
  keystroke(n: number, onFirstToken: () => void): void;
  preemptions(): number;
  engines(): number;
}

function messages(content: string): ChatCompletionRequest['messages'] {
  return [{ role: 'user', content }];
}

async function inklingDriver(size: number, clock: ReturnType<typeof FakeTimers.install>, resumeDelayMs?: number): Promise<Driver> {
  const createEngine = fakeEngines({ ...TIMINGS, reply });
  const pool = new EnginePool({ createEngine, size, ...(resumeDelayMs === undefined ? {} : { resumeDelayMs }) });
  const loading = pool.load();
  await clock.tickAsync(TIMINGS.loadMs);
  await loading;
  let preempted = 0;
  const item = async (i: number): Promise<void> => {
    const result = await pool.submit({ task: 'page', preemptible: true, params: { messages: messages(`item ${i}`) } });
    if (result.status === 'preempted') {
      preempted += 1;
      return item(i); // what useBatchTranslate does: resubmit at once
    }
    if (result.status !== 'done') throw new Error(`item ${i} ended ${result.status}`);
  };
  return {
    translate: async () => {
      await Promise.all(Array.from({ length: ITEMS }, (_, i) => item(i)));
    },
    keystroke: (n, onFirstToken) => {
      let first = true;
      void pool.submit({
        session: 'ghost',
        priority: 'interactive',
        params: { messages: messages(`ghost ${n}`), max_tokens: GHOST_TOKENS },
        onChunk: (chunk) => {
          if (first && chunk.choices[0]?.delta.content) {
            first = false;
            onFirstToken();
          }
        },
      });
    },
    preemptions: () => preempted,
    engines: () => createEngine.engines.length,
  };
}

/** What a WebLLM app does without Inkling: one engine, requests in arrival order, nothing superseded. */
function baselineDriver(): Driver {
  const engine = createFakeEngine({ ...TIMINGS, reply });
  const run = async (request: ChatCompletionRequest, onFirstToken?: () => void) => {
    const stream = await engine.chat.completions.create({ ...request, stream: true });
    for await (const chunk of stream) {
      if (onFirstToken && chunk.choices[0]?.delta.content) {
        onFirstToken();
        onFirstToken = undefined;
      }
    }
  };
  return {
    translate: async () => {
      for (let i = 0; i < ITEMS; i += 1) await run({ messages: messages(`item ${i}`) });
    },
    keystroke: (n, onFirstToken) => {
      void run({ messages: messages(`ghost ${n}`), max_tokens: GHOST_TOKENS }, onFirstToken);
    },
    preemptions: () => 0,
    engines: () => 1,
  };
}

const LABELS: Record<SceneKind, string> = {
  idle: 'idle (no translation), Inkling, 1 engine',
  'inkling-1': 'Inkling, 1 engine',
  'inkling-1-no-wait': 'Inkling, 1 engine, resumeDelayMs 0',
  'inkling-2': 'Inkling, 2 engines',
  baseline: 'without Inkling (1 engine, FIFO)',
};

export async function runScene(scene: SceneKind, seed = 7): Promise<SceneResult> {
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  try {
    const driver =
      scene === 'baseline'
        ? baselineDriver()
        : await inklingDriver(scene === 'inkling-2' ? 2 : 1, clock, scene === 'inkling-1-no-wait' ? 0 : undefined);
    const start = Date.now();
    let translationDone: number | null = null;
    const translating = scene === 'idle' ? null : driver.translate().then(() => (translationDone = Date.now()));

    const plan = typingPlan(seed, 10 * 60_000);
    // One entry per pause: the wait for the suggestion of its last keystroke,
    // or Infinity when it never came (superseded by the next keystroke first).
    const waits: number[] = [];
    let index = 0;
    const stillTyping = () => (scene === 'idle' ? Date.now() - start < IDLE_SESSION_MS : translationDone === null);
    const typeNext = () => {
      const key = plan[index];
      if (!key || !stillTyping()) return;
      const n = index;
      index += 1;
      const sentAt = Date.now();
      const next = plan[index];
      // Only the suggestion a person waits for counts: the last keystroke before a pause.
      const slot = key.endsBurst ? waits.push(Number.POSITIVE_INFINITY) - 1 : -1;
      driver.keystroke(n, () => {
        if (slot >= 0) waits[slot] = Date.now() - sentAt;
      });
      if (next) setTimeout(typeNext, start + next.at - Date.now());
    };
    setTimeout(typeNext, plan[0]!.at);

    while (stillTyping()) await clock.tickAsync(1000);
    await translating;
    await clock.runAllAsync();
    const seconds = translationDone === null ? null : (translationDone - start) / 1000;
    return {
      scene,
      label: LABELS[scene],
      p50Ms: percentile(waits, 50),
      p95Ms: percentile(waits, 95),
      pauses: waits.length,
      answered: waits.filter(Number.isFinite).length,
      itemsPerSecond: seconds === null ? null : ITEMS / seconds,
      preemptions: driver.preemptions(),
      engines: driver.engines(),
    };
  } finally {
    clock.uninstall();
  }
}
