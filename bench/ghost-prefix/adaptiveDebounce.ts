/**
 * Adaptive debounce against the fixed one, on the simulated engine, in
 * virtual time (`@sinonjs/fake-timers`): the writer of `writerSession.ts`
 * (words, Backspaces over a word, Tabs) typed by three typists, a quick one
 * (60 ms ± 20 between keys), a slow, uneven one (170 ms ± 80) and a
 * hunt-and-peck one (380 ms ± 120), each word followed by a 700 ms pause,
 * on two engines: a quick one (150 ms to the first token, 35 ms a token) and
 * a slow one (600 ms, 70 ms: wllama on a laptop's CPU).
 * The controllers (the fixed one twice: identical baselines, the noise)
 * take turns run by run, the order rotated each rep, on the same seeds. Per
 * run: engine requests per accepted character, and keystroke → first glyph
 * of each suggestion shown (from `ghostEvents`), of all of them and of those
 * a typed key led to (not a Tab: the ones a debounce waits for).
 * Virtual time makes a run deterministic: the spread between reps is the
 * writer's (another seed each rep), not the machine's.
 *
 *   pnpm --filter @inkling/bench exec tsx --conditions=@inkling/source ghost-prefix/adaptiveDebounce.ts [--reps 5] [--steps 80] [--engine 'slow engine'] [--perRep]
 */
import FakeTimers from '@sinonjs/fake-timers';
import { EnginePool } from '@inkling/scheduler';
import { GhostTextController, type GhostTextOptions } from '../../packages/react/src/ghost/core/ghostTextController.js';
import { adaptiveDebounce } from '../../packages/react/src/ghost/core/adaptiveDebounce.js';
import type { GhostTextEvent } from '../../packages/react/src/ghost/core/ghostTextEvent.js';
import { ghostEvents } from '../../packages/react/src/ghost/core/ghostTextEvents.js';
import { simulatedEngines } from '../../packages/react/src/testing/simulatedEngines.js';
import { fmt, median, percentile, seeded, table } from '../shared/stats.js';
import { writerSession } from './writerSession.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const REPS = arg('reps', 5);
const STEPS = arg('steps', 80);
const TYPISTS = {
  quick: { gapMs: 60, jitterMs: 20 },
  slow: { gapMs: 170, jitterMs: 80 },
  'hunt-and-peck': { gapMs: 380, jitterMs: 120 },
} as const;
/** The simulated engine's times: a quick one (a small model on a GPU) and a slow one (wllama on a laptop's CPU). */
const ENGINES = {
  'quick engine': { prefillMs: 150, tokenMs: 35 },
  'slow engine': { prefillMs: 600, tokenMs: 70 },
} as const;
type EngineName = keyof typeof ENGINES;
const CONFIGS: Record<string, Partial<GhostTextOptions>> = {
  'fixed 120 ms': {},
  'fixed 120 ms again': {},
  'adaptive 60–600 ms': { adaptDebounce: adaptiveDebounce({ minMs: 60, maxMs: 600 }) },
};

interface Run {
  readonly requests: number;
  readonly accepted: number;
  readonly firstGlyph: number[];
  /** The same for the suggestions a typed key led to (not a Tab): the ones a debounce waits for. */
  readonly afterKey: number[];
}

async function run(engine: EngineName, typist: keyof typeof TYPISTS, config: Partial<GhostTextOptions>, seed: number): Promise<Run> {
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  try {
    const pool = new EnginePool({ createEngine: simulatedEngines(ENGINES[engine]), size: 1 });
    const loading = pool.load();
    await clock.tickAsync(5_000);
    await loading;
    const events: { readonly event: GhostTextEvent; readonly at: number }[] = [];
    const options = { session: 'writer', ...config, events: ghostEvents((event) => events.push({ event, at: Date.now() })) };
    /** When each key and Tab came (virtual ms): what led to a suggestion is the last of them before it. */
    const actions: { readonly at: number; readonly tab: boolean }[] = [];
    const ghost = new GhostTextController(
      pool,
      { ...options, text: '' },
      {
        now: () => Date.now(),
        scheduleFrame: (fn) => {
          const frame = setTimeout(fn, 16);
          return () => clearTimeout(frame);
        },
      },
    );
    const unsubscribe = ghost.subscribe(() => {});
    const random = seeded(seed * 7919);
    const { gapMs, jitterMs } = TYPISTS[typist];
    let text = 'Notes from the meeting:';
    const set = (tab = false) => {
      actions.push({ at: Date.now(), tab });
      ghost.setOptions({ ...options, text });
    };
    let accepted = 0;
    for (const step of writerSession(STEPS, seed)) {
      if (step.kind === 'word') {
        for (const char of step.word) {
          text += char;
          set();
          await clock.tickAsync(Math.max(10, gapMs + (random() * 2 - 1) * jitterMs));
        }
      } else if (step.kind === 'backspace') {
        for (let i = 0; i < step.chars; i += 1) {
          text = text.slice(0, -1);
          set();
          await clock.tickAsync(Math.max(10, gapMs + (random() * 2 - 1) * jitterMs));
        }
      } else {
        for (let i = 0; i < step.tabs; i += 1) {
          const next = ghost.accept();
          accepted += next.inserted.length;
          text = next.text;
          set(true);
          await clock.tickAsync(400); // reads the next one
        }
      }
      await clock.tickAsync(700); // the pause after a word
    }
    const { requests } = ghost.stats;
    unsubscribe();
    ghost.dispose();
    await clock.runAllAsync();
    await pool.unload();
    const shown = events.flatMap(({ event, at }) => (event.type === 'shown' ? [{ ...event, at }] : []));
    const firstGlyph = shown.map((event) => event.firstGlyphMs);
    // The first glyph came at or before the event, and that many ms after the key or Tab that led to it.
    const ledBy = ({ at, firstGlyphMs }: { at: number; firstGlyphMs: number }) =>
      actions.findLast((action) => action.at <= at - firstGlyphMs);
    const afterKey = shown.flatMap((event) => (ledBy(event)?.tab === false ? [event.firstGlyphMs] : []));
    return { requests, accepted, firstGlyph, afterKey };
  } finally {
    clock.uninstall();
  }
}

const only = process.argv.includes('--engine') ? [process.argv[process.argv.indexOf('--engine') + 1]] : Object.keys(ENGINES);
for (const engine of only as EngineName[])
  for (const typist of Object.keys(TYPISTS) as (keyof typeof TYPISTS)[]) {
    const runs = new Map<string, Run[]>(Object.keys(CONFIGS).map((name) => [name, []]));
    for (let rep = 1; rep <= REPS; rep += 1) {
      // Alternating (rotated each rep), the same seed for all.
      const all = Object.keys(CONFIGS);
      const names = [...all.slice(rep % all.length), ...all.slice(0, rep % all.length)];
      for (const name of names) runs.get(name)?.push(await run(engine, typist, CONFIGS[name] as Partial<GhostTextOptions>, rep));
    }
    if (process.argv.includes('--perRep'))
      for (const [name, list] of runs)
        console.log(
          name,
          list.map((r) => `${r.requests}/${r.accepted}/p95=${percentile(r.firstGlyph, 95)}/n=${r.firstGlyph.length}`).join(' '),
        );
    const rows = [...runs].map(([name, list]) => {
      const perChar = list.map((r) => r.requests / Math.max(1, r.accepted));
      const p95 = list.map((r) => percentile(r.firstGlyph, 95));
      const p50 = list.map((r) => percentile(r.firstGlyph, 50));
      const keyP95 = list.map((r) => percentile(r.afterKey, 95));
      return [
        name,
        `${fmt(median(list.map((r) => r.requests)), 0)}`,
        `${fmt(median(list.map((r) => r.accepted)), 0)}`,
        `${fmt(median(perChar), 3)} (${fmt(Math.min(...perChar), 3)}–${fmt(Math.max(...perChar), 3)})`,
        `${fmt(median(p50), 0)}`,
        `${fmt(median(p95), 0)} (${fmt(Math.min(...p95), 0)}–${fmt(Math.max(...p95), 0)})`,
        `${fmt(median(keyP95), 0)} (${fmt(Math.min(...keyP95), 0)}–${fmt(Math.max(...keyP95), 0)})`,
      ];
    });
    console.log(
      `\n${typist} typist, ${engine}, ${REPS} reps of ${STEPS} steps, simulated (${ENGINES[engine].prefillMs} ms to the first token, ${ENGINES[engine].tokenMs} ms a token), virtual time`,
    );
    console.log(
      table(
        [
          'debounce',
          'requests',
          'accepted chars',
          'requests / accepted char (min–max)',
          'first glyph p50 ms',
          'p95 ms (min–max)',
          'after a typed key p95 ms (min–max)',
        ],
        rows,
      ),
    );
  }
