import { EnginePool, type Pool } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { GhostTextController, type GhostTextOptions } from '../../../packages/react/src/ghost/core/ghostTextController.js';
import { adaptiveDebounce } from '../../../packages/react/src/ghost/core/adaptiveDebounce.js';
import { seeded } from '../../shared/stats.js';
import { TodayGhostController } from '../todayGhostController.js';
import { makeNote } from '../typingSession.js';
import { type GhostLike, type WriterRun, countingPool, replayWriter } from '../writerReplay.js';
import { writerSession } from '../writerSession.js';

export interface WriterConfig {
  model: string;
  note: number;
  steps: number;
  reps: number;
  maxTokens: number;
  /** Reps of the translation experiment (speculation on vs off under a running translation). */
  translationReps: number;
  translationSteps: number;
  /** How long the writer reads a complete suggestion before going on. */
  readMs: number;
}

export type Variant = 'today' | 'cache+speculation' | 'speculation off' | 'speculation off again' | 'speculation on';

export interface VariantRun extends WriterRun {
  readonly variant: Variant;
  readonly rep: number;
  readonly wallMs: number;
  /** Translation tokens streamed during the run (translation experiment only). */
  readonly translationTokens: number;
  readonly translations: number;
}

/** The debounce experiment: the fixed 120 ms debounce (twice: the noise) against `adaptiveDebounce`, one typist. */
export interface DebounceConfig {
  model: string;
  note: number;
  steps: number;
  reps: number;
  maxTokens: number;
  readMs: number;
  /** Ms between the keys of a word, ± `jitterMs` (uniform, seeded). */
  gapMs: number;
  jitterMs: number;
}

export type DebounceVariant = 'fixed 120 ms' | 'fixed 120 ms again' | 'adaptive 60–600 ms';

export interface DebounceRun extends WriterRun {
  readonly variant: DebounceVariant;
  readonly rep: number;
}

declare global {
  interface Window {
    inklingGhostWriter: (config: WriterConfig) => Promise<VariantRun[]>;
    inklingDebounceWriter: (config: DebounceConfig) => Promise<DebounceRun[]>;
  }
}

const build: Record<Variant, (pool: Pool) => GhostLike> = {
  today: (pool) => new TodayGhostController(pool, { session: 'x', text: '' }),
  'cache+speculation': (pool) => new GhostTextController(pool, { session: 'x', text: '' }),
  'speculation off': (pool) => new GhostTextController(pool, { session: 'x', text: '', speculate: false }),
  // The same as 'speculation off': a second baseline, to see the noise.
  'speculation off again': (pool) => new GhostTextController(pool, { session: 'x', text: '', speculate: false }),
  'speculation on': (pool) => new GhostTextController(pool, { session: 'x', text: '' }),
};

const SENTENCES = [
  'The meeting moved to Thursday.',
  'Please send the report by noon.',
  'We will need two more chairs.',
  'The train leaves at seven.',
];

/** Translation jobs one after another (normal priority, preemptible, as useBatchTranslate sends them) until `stop()`; a preempted one is sent again. */
function runTranslation(pool: Pool, counts: ReturnType<typeof countingPool>['counts']) {
  const state = { running: true };
  const done = (async () => {
    for (let i = 0; state.running; i += 1) {
      const text = SENTENCES[i % SENTENCES.length]!;
      const params = { messages: [{ role: 'user' as const, content: `Translate into French: ${text}` }], max_tokens: 24, temperature: 0 };
      const result = await pool.submit({ task: 'translate', priority: 'normal', preemptible: true, params });
      if (result.status === 'done') counts.translations += 1;
    }
  })();
  return async () => {
    state.running = false;
    await done;
  };
}

window.inklingGhostWriter = async (config) => {
  const base = new EnginePool({ createEngine: wllamaEngines({ model: config.model, wasmUrl, seed: 7, contextSize: 4096 }), size: 1 });
  await base.load();
  const runs: VariantRun[] = [];
  const play = async (variant: Variant, rep: number, steps: number, translating: boolean) => {
    const counted = countingPool(base);
    const ghost = build[variant](counted.pool);
    const stop = translating ? runTranslation(counted.pool, counted.counts) : undefined;
    const start = performance.now();
    // A new note each rep (llama.cpp keeps the prompts it has seen); the same note for both variants of a rep.
    const run = await replayWriter(ghost, counted, writerSession(steps, 40 + rep), {
      session: `writer-${variant}-${rep}`,
      note: makeNote(config.note, rep + 1),
      maxTokens: config.maxTokens,
      readMs: config.readMs,
    });
    const wallMs = performance.now() - start;
    await stop?.();
    runs.push({
      ...run,
      variant,
      rep,
      wallMs,
      translationTokens: counted.counts.translationTokens,
      translations: counted.counts.translations,
    });
  };
  for (let rep = 0; rep < config.reps; rep += 1) {
    const pair: Variant[] = rep % 2 === 0 ? ['today', 'cache+speculation'] : ['cache+speculation', 'today'];
    for (const variant of pair) await play(variant, rep, config.steps, false);
  }
  for (let rep = 0; rep < config.translationReps; rep += 1) {
    // Rotated, so each comes first, second and third in turn.
    const order: Variant[] = ['speculation off', 'speculation on', 'speculation off again'];
    const turn = [...order.slice(rep % 3), ...order.slice(0, rep % 3)];
    for (const variant of turn) await play(variant, 100 + rep, config.translationSteps, true);
  }
  await base.unload();
  return runs;
};

window.inklingDebounceWriter = async (config) => {
  const base = new EnginePool({ createEngine: wllamaEngines({ model: config.model, wasmUrl, seed: 7, contextSize: 4096 }), size: 1 });
  await base.load();
  const adapt = adaptiveDebounce({ minMs: 60, maxMs: 600 });
  const extra: Record<DebounceVariant, Partial<GhostTextOptions>> = {
    'fixed 120 ms': {},
    'fixed 120 ms again': {},
    'adaptive 60–600 ms': { adaptDebounce: adapt },
  };
  const runs: DebounceRun[] = [];
  const order = Object.keys(extra) as DebounceVariant[];
  for (let rep = 0; rep < config.reps; rep += 1) {
    // Rotated, so each comes first, second and third in turn; the same note, steps and key gaps for all three.
    for (const variant of [...order.slice(rep % 3), ...order.slice(0, rep % 3)]) {
      const counted = countingPool(base);
      const session = `debounce-${rep}-${variant}`;
      const random = seeded(rep * 7919 + 1);
      const controller = new GhostTextController(counted.pool, { session, text: '', ...extra[variant] });
      // The replay passes text, caret and length; the variant's option rides along on each.
      const ghost: GhostLike = {
        setOptions: (options) => controller.setOptions({ ...options, ...extra[variant] }),
        getSnapshot: () => controller.getSnapshot(),
        subscribe: (listener) => controller.subscribe(listener),
        dispose: () => controller.dispose(),
      };
      const run = await replayWriter(ghost, counted, writerSession(config.steps, 40 + rep), {
        session,
        note: makeNote(config.note, rep + 1),
        maxTokens: config.maxTokens,
        readMs: config.readMs,
        keyMs: () => Math.max(10, config.gapMs + (random() * 2 - 1) * config.jitterMs),
      });
      runs.push({ ...run, variant, rep });
    }
  }
  await base.unload();
  return runs;
};
