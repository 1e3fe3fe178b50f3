/** Single measured runs of the Node benchmark. */
import type * as webllm from '@mlc-ai/web-llm';
import type { EnginePool, JobResult } from '@inkling/scheduler';
import { type ProbedChunk, afterCancel } from '../chunkProbe.js';
import { GHOST_PROMPT, LONG_PROMPT, TOKENS, request, smoke } from './benchConfig.js';

export interface Run {
  tokens: number;
  decodeTps: number;
  wallTps: number;
  prefillTps: number;
}

const extraOf = (usage: unknown) => ((usage as { extra?: Record<string, number> } | undefined)?.extra ?? {});

/** One streamed generation straight on WebLLM's client: no pool, no adapter. */
export async function rawRun(engine: webllm.WebWorkerMLCEngine): Promise<Run> {
  const stream = await engine.chat.completions.create({ ...request(LONG_PROMPT, TOKENS), stream: true, stream_options: { include_usage: true } });
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
  const delay = mode === 'timer' ? [5, 15, 25, 35, 10, 20][run % 6] ?? 0 : 0;
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
  const { tokens, finalAt } = afterCancel(streams[index] ?? [], cancelAt);
  return { ms: (finalAt ?? Number.NaN) - cancelAt, after: tokens, delay };
}

export async function pairThroughput(pool: EnginePool): Promise<number> {
  let tokens = 0;
  const start = performance.now();
  await Promise.all(
    ['a', 'b'].map((task) =>
      pool.submit({
        task,
        params: request(LONG_PROMPT, TOKENS),
        onChunk: (chunk) => {
          if (chunk.choices[0]?.delta.content) tokens += 1;
        },
      }),
    ),
  );
  return tokens / ((performance.now() - start) / 1000);
}

export async function ghostLatencies(pool: EnginePool, count: number): Promise<Array<{ ms: number; engine: number | undefined }>> {
  const latencies: Array<{ ms: number; engine: number | undefined }> = [];
  for (let i = 0; i < count; i += 1) {
    const result = await pool.submit({ session: 'ghost', priority: 'interactive', params: request(`${GHOST_PROMPT} ${i}`, 8) });
    if (result.firstTokenAt === undefined) throw new Error(`ghost job ${result.status}: ${result.error?.message}`);
    latencies.push({ ms: result.firstTokenAt - result.submittedAt, engine: result.engineIndex });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return latencies;
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

