/**
 * Plays a `writerSession` against a ghost-text controller in real time, on
 * a real pool, and measures what the writer waits for: pause → suggestion,
 * accept → next suggestion, whether a new engine call was needed, and the
 * engine tokens generated (every job, speculative ones included).
 */
import type { ChatJobSpec, CompletionUsage, Pool } from '@inkling/scheduler';
import { cachedTokensOf } from './replay.js';
import type { GhostTextState } from '../../packages/react/src/ghost/core/projectGhostText.js';
import type { WriterStep } from './writerSession.js';

/** What the replay drives: `GhostTextController` and the frozen `TodayGhostController` both are. */
export interface GhostLike {
  setOptions(options: { session: string; text: string; caret?: number; maxTokens?: number; speculate?: boolean }): void;
  getSnapshot(): GhostTextState;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

/** One wait of the writer's: after a pause (a word typed, a Backspace) or after a Tab. */
export interface Wait {
  readonly after: 'pause' | 'backspace' | 'tab';
  /** Ms until a suggestion for the text on screen was visible; `NaN` when none came within the timeout. */
  readonly ms: number;
  /** Whether the pool got a new interactive job between the event and the suggestion. */
  readonly newCall: boolean;
  /** Whether the suggestion came from the cache (a finished speculation, or an answered text). */
  readonly fromCache: boolean;
}

export interface WriterRun {
  readonly waits: Wait[];
  /** Interactive jobs sent (speculative ones not counted). */
  readonly requests: number;
  /** Content chunks (about one a token) the engine streamed, every job of the pool counted. */
  readonly tokens: number;
  readonly acceptedChars: number;
  /** Interactive first-token times (submit → first chunk) of this run's ghost jobs. */
  readonly firstTokenMs: number[];
  /** Prompt tokens the engine had to prefill (prompt minus cached) for this run's interactive jobs that finished. */
  readonly prefilled: number[];
}

/** Counts what goes through a pool: interactive submissions, chunks, first-token times. */
export function countingPool(pool: Pool) {
  const counts = {
    interactive: 0,
    tokens: 0,
    firstTokenMs: [] as number[],
    prefilled: [] as number[],
    translationTokens: 0,
    translations: 0,
  };
  const submit: Pool['submit'] = (spec) => {
    const chat = spec as ChatJobSpec;
    const started = performance.now();
    let first = true;
    if (chat.priority === 'interactive') counts.interactive += 1;
    const onChunk = chat.onChunk;
    const wrapped = {
      ...chat,
      onChunk: (chunk: Parameters<NonNullable<ChatJobSpec['onChunk']>>[0]) => {
        if (chunk.choices?.[0]?.delta?.content) {
          counts.tokens += 1;
          if (chat.task === 'translate') counts.translationTokens += 1;
          if (first && chat.priority === 'interactive') counts.firstTokenMs.push(performance.now() - started);
          first = false;
        }
        onChunk?.(chunk);
      },
    };
    const job = pool.submit(wrapped as typeof spec);
    if (chat.priority === 'interactive') {
      void job.then((result) => {
        const usage = result.usage as CompletionUsage | undefined;
        const cached = cachedTokensOf(usage);
        if (result.status === 'done' && usage?.prompt_tokens !== undefined && !Number.isNaN(cached))
          counts.prefilled.push(usage.prompt_tokens - cached);
      });
    }
    return job;
  };
  return { pool: new Proxy(pool, { get: (target, key) => (key === 'submit' ? submit : Reflect.get(target, key)) }) as Pool, counts };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ReplayOptions {
  readonly session: string;
  readonly note: string;
  readonly maxTokens: number;
  /** Ms between keys of a word, or a function giving each gap. Default 60 (typing faster than the debounce). */
  readonly keyMs?: number | (() => number);
  /** The longest wait for a suggestion. Default 4000. */
  readonly timeoutMs?: number;
  /** How long the writer reads a complete suggestion before going on (typing or Tab). Default 400. */
  readonly readMs?: number;
}

/** Plays `steps` on `ghost` (built on `counted.pool`). */
export async function replayWriter(
  ghost: GhostLike,
  counted: ReturnType<typeof countingPool>,
  steps: readonly WriterStep[],
  options: ReplayOptions,
): Promise<WriterRun> {
  const { session, maxTokens, keyMs = 60, timeoutMs = 4000, readMs = 400 } = options;
  let text = options.note;
  const set = () => ghost.setOptions({ session, text, caret: text.length, maxTokens });
  const visible = () => {
    const state = ghost.getSnapshot();
    return state.suggestion !== '' && state.context?.before === text && state.context.after === '';
  };
  /** Resolves when a suggestion for the text is visible (`'done'` too when `complete`), or at the timeout. */
  const until = (complete: boolean) =>
    new Promise<boolean>((resolve) => {
      const ok = () => visible() && (!complete || ghost.getSnapshot().status === 'done');
      if (ok()) return resolve(true);
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, timeoutMs);
      const stop = ghost.subscribe(() => {
        if (!ok()) return;
        clearTimeout(timer);
        stop();
        resolve(true);
      });
    });
  const waits: Wait[] = [];
  const measure = async (after: Wait['after']) => {
    const start = performance.now();
    const calls = counted.counts.interactive;
    const shown = await until(false);
    waits.push({
      after,
      ms: shown ? performance.now() - start : Number.NaN,
      newCall: counted.counts.interactive !== calls,
      fromCache: ghost.getSnapshot().fromCache,
    });
  };
  const tokens = counted.counts.tokens;
  const requests = counted.counts.interactive;
  const firstTokens = counted.counts.firstTokenMs.length;
  const prefilled = counted.counts.prefilled.length;
  let acceptedChars = 0;
  // Held for the whole run: a store stops (and cancels its work) when its last listener leaves.
  const hold = ghost.subscribe(() => {});
  set();
  await until(true);
  for (const step of steps) {
    if (step.kind === 'word' || step.kind === 'backspace') {
      const n = step.kind === 'word' ? step.word.length : step.chars;
      for (let i = 0; i < n; i += 1) {
        if (i > 0) await sleep(step.kind === 'word' ? (typeof keyMs === 'function' ? keyMs() : keyMs) : 40);
        text = step.kind === 'word' ? text + step.word[i] : text.slice(0, -1);
        set();
      }
      await measure(step.kind === 'word' ? 'pause' : 'backspace');
      await until(true); // reading it to its end
      await sleep(readMs);
      continue;
    }
    for (let t = 0; t < step.tabs; t += 1) {
      if (!(await until(true))) break; // nothing to accept
      const suggestion = ghost.getSnapshot().suggestion;
      text += suggestion;
      acceptedChars += suggestion.length;
      set();
      await measure('tab');
      if (t + 1 < step.tabs && (await until(true))) await sleep(readMs); // reading the next before the next Tab
    }
  }
  await until(true);
  hold();
  ghost.dispose();
  return {
    waits,
    requests: counted.counts.interactive - requests,
    tokens: counted.counts.tokens - tokens,
    acceptedChars,
    firstTokenMs: counted.counts.firstTokenMs.slice(firstTokens),
    prefilled: counted.counts.prefilled.slice(prefilled),
  };
}
