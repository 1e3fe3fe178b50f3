/**
 * The prefix-reuse benchmark's replay and summary: one ghost-text request per
 * pause of a typing session, straight on a WebLLM engine carrying the kit's
 * prefix reuse (packages/webllm/src/worker/prefixReuse.ts), switched on or off,
 * reading what the pipeline prefilled and when the first token came.
 */
import type { MLCEngine } from '@mlc-ai/web-llm';
import { defaultGhostParams } from '../../../../packages/react/src/ghost/core/ghostPrompt.js';
import { fmt, median, table } from '../../../../bench/shared/stats.js';
import type { Pause } from '../../../../bench/ghost-prefix/typingSession.js';

/** The switch and readings of the kit's prefix reuse on the engine (see prefixBench.ts). */
export interface PatchedPipeline {
  prefixReuse?: boolean;
  readonly lastPrefilledTokens?: number | undefined;
  readonly lastReusedTokens?: number | undefined;
}

export interface PausePoint {
  readonly promptTokens: number;
  readonly prefilled: number;
  readonly reused: number;
  /** From the request to the first streamed chunk, as the caller sees it. */
  readonly firstTokenMs: number;
  /** WebLLM's own time to first token (usage.extra). */
  readonly engineFirstTokenMs: number;
  readonly text: string;
}

/** unpatched: WebLLM as it is; patched: the kit's worker (prefix reuse and the one-pass greedy pick); reuse only: prefix reuse, TVM's pick. */
export type Variant = 'unpatched' | 'patched' | 'reuse only';

export interface VariantRun {
  readonly note: number;
  readonly variant: Variant;
  readonly rep: number;
  readonly pauses: readonly PausePoint[];
}

/** Sends the session's pauses one after another as default ghost-text requests. */
export async function replayOnEngine(
  engine: MLCEngine,
  pipeline: PatchedPipeline,
  pauses: readonly Pause[],
  maxTokens: number,
): Promise<PausePoint[]> {
  const points: PausePoint[] = [];
  for (const { text, caret } of pauses) {
    const params = defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens });
    const start = performance.now();
    const stream = await engine.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } } as never);
    let first = Number.NaN;
    let out = '';
    let usage: { prompt_tokens?: number; extra?: { time_to_first_token_s?: number } } | undefined;
    for await (const chunk of stream as unknown as AsyncIterable<{
      choices: Array<{ delta?: { content?: string } }>;
      usage?: typeof usage;
    }>) {
      if (Number.isNaN(first) && chunk.choices.length > 0) first = performance.now() - start;
      out += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    points.push({
      promptTokens: usage?.prompt_tokens ?? Number.NaN,
      prefilled: pipeline.lastPrefilledTokens ?? Number.NaN,
      reused: pipeline.lastReusedTokens ?? 0,
      firstTokenMs: first,
      engineFirstTokenMs: (usage?.extra?.time_to_first_token_s ?? Number.NaN) * 1000,
      text: out,
    });
  }
  return points;
}

/** Per note size and variant, the first (cold) pause of each run left out. */
export function summarizePrefix(runs: readonly VariantRun[]) {
  const keys = [...new Set(runs.map((r) => `${r.note}|${r.variant}`))];
  return keys.map((key) => {
    const mine = runs.filter((r) => `${r.note}|${r.variant}` === key);
    const warm = mine.flatMap((r) => r.pauses.slice(1));
    const prefilled = warm.map((p) => p.prefilled);
    return {
      note: mine[0]!.note,
      variant: mine[0]!.variant,
      pauses: warm.length,
      promptTokens: median(warm.map((p) => p.promptTokens)),
      prefilledTokens: median(prefilled),
      meanPrefilled: prefilled.reduce((a, b) => a + b, 0) / Math.max(1, prefilled.length),
      maxPrefilled: Math.max(...prefilled),
      firstTokenMs: median(warm.map((p) => p.firstTokenMs)),
      engineFirstTokenMs: median(warm.map((p) => p.engineFirstTokenMs)),
      firstTokenRunMedians: mine.map((r) => median(r.pauses.slice(1).map((p) => p.firstTokenMs))).toSorted((a, b) => a - b),
    };
  });
}

/** How many pauses produced the same text with the patch (either variant) as without it (greedy decoding: a wrong cache shows here). */
export function sameOutputs(runs: readonly VariantRun[]): { same: number; of: number } {
  let same = 0;
  let of = 0;
  for (const run of runs.filter((r) => r.variant !== 'unpatched')) {
    const other = runs.find((r) => r.variant === 'unpatched' && r.note === run.note && r.rep === run.rep);
    run.pauses.forEach((p, i) => {
      of += 1;
      if (other?.pauses[i]?.text === p.text) same += 1;
    });
  }
  return { same, of };
}

export function reportPrefix(rows: ReturnType<typeof summarizePrefix>): string {
  const lines = rows.map((row) => {
    const base = rows.find((r) => r.note === row.note && r.variant === 'unpatched');
    const runs = row.firstTokenRunMedians;
    const vs = base && row !== base;
    return [
      `${row.note} chars`,
      row.variant,
      fmt(row.promptTokens, 0),
      `${fmt(row.prefilledTokens, 0)} / ${fmt(row.meanPrefilled, 1)} / ${fmt(row.maxPrefilled, 0)}`,
      vs ? `x${fmt(base.meanPrefilled / Math.max(row.meanPrefilled, 1e-9), 1)} fewer` : 'baseline',
      `${fmt(row.firstTokenMs, 1)} (${fmt(runs[0] ?? Number.NaN, 1)}–${fmt(runs.at(-1) ?? Number.NaN, 1)})`,
      fmt(row.engineFirstTokenMs, 1),
      vs ? `x${fmt(base.firstTokenMs / row.firstTokenMs, 2)} sooner` : 'baseline',
    ];
  });
  return table(
    [
      'note',
      'WebLLM',
      'prompt tokens p50',
      'prefilled p50/mean/max',
      'prefill vs unpatched',
      'first token ms p50 (run medians min–max)',
      'engine TTFT ms p50',
      'vs unpatched',
    ],
    lines,
  );
}
