/** Single measured runs of the Node benchmark. */
import type * as webllm from '@mlc-ai/web-llm';
import type { EnginePool, JobResult } from '@inkling/scheduler';
import { defaultGhostParams } from '../../../../packages/react/src/ghost/core/ghostPrompt.js';
import type { Pause } from '../../../../bench/ghost-prefix/typingSession.js';
import { type ProbedChunk, afterCancel } from '../chunkProbe.js';
import { GHOST_GAP_MS, LONG_PROMPT, TOKENS, request, smoke } from './benchConfig.js';

export interface Run {
  tokens: number;
  decodeTps: number;
  wallTps: number;
  prefillTps: number;
}

const extraOf = (usage: unknown) => (usage as { extra?: Record<string, number> } | undefined)?.extra ?? {};

/** One streamed generation straight on WebLLM's client: no pool, no adapter. */
export async function rawRun(engine: webllm.WebWorkerMLCEngine): Promise<Run> {
  const stream = await engine.chat.completions.create({
    ...request(LONG_PROMPT, TOKENS),
    stream: true,
    stream_options: { include_usage: true },
  });
  const stamps: number[] = [];
  let usage: unknown;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta.content) stamps.push(performance.now());
    if (chunk.usage) usage = chunk.usage;
  }
  return summarise(stamps, usage);
}

/** The same generation as a pool job. */
export async function poolRun(pool: EnginePool): Promise<Run> {
  const stamps: number[] = [];
  const result = await pool.submit({
    params: request(LONG_PROMPT, TOKENS),
    onChunk: (chunk) => {
      if (chunk.choices[0]?.delta.content) stamps.push(performance.now());
    },
  });
  if (result.status !== 'done') throw new Error(`pool run ended ${result.status}: ${result.error?.message}`);
  return summarise(stamps, result.usage);
}

function summarise(stamps: number[], usage: unknown): Run {
  const extra = extraOf(usage);
  const first = stamps[0] ?? 0;
  const last = stamps.at(-1) ?? first;
  return {
    tokens: stamps.length,
    decodeTps: extra.decode_tokens_per_s ?? Number.NaN,
    prefillTps: extra.prefill_tokens_per_s ?? Number.NaN,
    wallTps: stamps.length > 1 ? (stamps.length - 1) / ((last - first) / 1000) : Number.NaN,
  };
}

export async function cancelRun(
  pool: EnginePool,
  streams: ProbedChunk[][],
  mode: 'on-chunk' | 'timer',
  run: number,
): Promise<{ ms: number; after: number; delay: number }> {
  let cancelAt = 0;
  let seen = 0;
  const delay = mode === 'timer' ? ([5, 15, 25, 35, 10, 20][run % 6] ?? 0) : 0;
  const id = `long-${streams.length}`;
  const cancel = () => {
    cancelAt = performance.now();
    pool.cancel(id);
  };
  const job = pool.submit({
    id,
    params: request(LONG_PROMPT, 4096),
    onChunk: (chunk) => {
      if (chunk.choices[0]?.delta.content) seen += 1;
      if (seen !== (smoke ? 1 : 16)) return;
      if (mode === 'timer') setTimeout(cancel, delay);
      else cancel();
    },
  });
  const index = streams.length;
  const result = await job;
  if (result.status !== 'cancelled') throw new Error(`cancel run ended ${result.status}`);
  // The job settles when the pool lets it go; the engine's stream ends with its final chunk, maybe later.
  const end = performance.now() + 10_000;
  while (!(streams[index] ?? []).some((c) => c.finish !== null) && performance.now() < end) await new Promise((r) => setTimeout(r, 2));
  const { tokens, finalAt } = afterCancel(streams[index] ?? [], cancelAt);
  return { ms: (finalAt ?? Number.NaN) - cancelAt, after: tokens, delay };
}

/** CPU cores this process kept busy (all its threads) since `from`, and the wall time. */
export function cpuCores(from: { cpu: NodeJS.CpuUsage; at: number }): number {
  const used = process.cpuUsage(from.cpu);
  return (used.user + used.system) / 1000 / (performance.now() - from.at);
}

/** `jobs` jobs of different tasks at once on `pool`: total content tokens per second. */
export async function throughput(pool: EnginePool, jobs: number, tokensEach: number): Promise<number> {
  let tokens = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: jobs }, (_, i) =>
      pool.submit({
        task: `t${i}`,
        params: request(LONG_PROMPT, tokensEach),
        onChunk: (chunk) => {
          if (chunk.choices[0]?.delta.content) tokens += 1;
        },
      }),
    ),
  );
  return tokens / ((performance.now() - start) / 1000);
}

/** One ghost-text pause: time to its first token, and the prompt tokens the engine read. */
export interface GhostPoint {
  ms: number;
  /** Submit to the engine call (the pool's queue); 0 on the raw engine. */
  queueMs: number;
  /** WebLLM's own time to first token (usage.extra), inside the engine. */
  engineMs: number;
  /**
   * On lanes (usage.extra, NaN elsewhere): from the worker's open to the
   * prefill's start (the step in flight), the prefill to the first token,
   * whether it was taken during a step's readback, and the jobs on the
   * engine's lanes when it arrived.
   */
  laneWaitMs?: number;
  lanePrefillMs?: number;
  overlapped?: boolean;
  busyAtOpen?: number;
  engine: number | undefined;
  prompt: number;
  cached: number;
  prefilled: number;
  status: string;
  text: string;
}

/** A typing session's pauses as default ghost-text jobs of one session, one after another. */
export async function ghostSession(
  pool: EnginePool,
  pauses: readonly Pause[],
  session: string,
  onPoint?: (p: GhostPoint) => void,
): Promise<GhostPoint[]> {
  const points: GhostPoint[] = [];
  for (const { text, caret } of pauses) {
    const params = defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens: 8 });
    const result = await pool.submit({ session, priority: 'interactive', params });
    const usage = result.usage as { prompt_tokens?: number; cachedTokens?: number } | undefined;
    const prompt = usage?.prompt_tokens ?? Number.NaN;
    const cached = usage?.cachedTokens ?? 0;
    const point = {
      ms: result.firstTokenAt === undefined ? Number.NaN : result.firstTokenAt - result.submittedAt,
      queueMs: result.startedAt === undefined ? Number.NaN : result.startedAt - result.submittedAt,
      engineMs: (extraOf(result.usage).time_to_first_token_s ?? Number.NaN) * 1000,
      laneWaitMs: (extraOf(result.usage).lane_wait_s ?? Number.NaN) * 1000,
      lanePrefillMs: (extraOf(result.usage).lane_prefill_s ?? Number.NaN) * 1000,
      overlapped: extraOf(result.usage).lane_overlapped === 1,
      busyAtOpen: extraOf(result.usage).lane_busy_at_open ?? Number.NaN,
      engine: result.engineIndex,
      prompt,
      cached,
      prefilled: prompt - cached,
      status: result.status,
      text: result.text ?? '',
    };
    points.push(point);
    onPoint?.(point);
    await new Promise((resolve) => setTimeout(resolve, GHOST_GAP_MS));
  }
  return points;
}

/**
 * The same pauses straight on a raw WebLLM engine in a worker thread (WebLLM's
 * own protocol, the kit's prefix hooks on: `engineThread` 'webllm-reuse'),
 * timed from the call to the first content chunk.
 */
export async function rawGhostSession(engine: webllm.WebWorkerMLCEngine, pauses: readonly Pause[]): Promise<GhostPoint[]> {
  const points: GhostPoint[] = [];
  for (const { text, caret } of pauses) {
    const params = defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens: 8 });
    const start = performance.now();
    const stream = await engine.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } } as never);
    let first: number | undefined;
    let out = '';
    let usage: { prompt_tokens?: number; extra?: Record<string, number> } | undefined;
    for await (const chunk of stream as unknown as AsyncIterable<webllm.ChatCompletionChunk>) {
      const content = chunk.choices[0]?.delta.content;
      if (content) {
        first ??= performance.now();
        out += content;
      }
      if (chunk.usage) usage = chunk.usage as typeof usage;
    }
    points.push({
      ms: (first ?? Number.NaN) - start,
      queueMs: 0,
      engineMs: (usage?.extra?.time_to_first_token_s ?? Number.NaN) * 1000,
      engine: undefined,
      prompt: usage?.prompt_tokens ?? Number.NaN,
      cached: Number.NaN,
      prefilled: Number.NaN,
      status: 'done',
      text: out,
    });
    await new Promise((resolve) => setTimeout(resolve, GHOST_GAP_MS));
  }
  return points;
}

/** Translation items one after another on one task, until stopped. */
export function startTranslation(pool: EnginePool) {
  const state = { stopped: false };
  let markRunning!: () => void;
  const running = new Promise<void>((resolve) => (markRunning = resolve));
  const statuses: JobResult['status'][] = [];
  const loop = (async () => {
    while (!state.stopped) {
      const result = await pool.submit({
        task: 'translate-page',
        preemptible: true,
        params: request(LONG_PROMPT, smoke ? 4 : 64),
        onChunk: () => markRunning(),
      });
      statuses.push(result.status);
    }
  })();
  return {
    running,
    stop: async () => {
      state.stopped = true;
      await loop;
      return statuses;
    },
  };
}
