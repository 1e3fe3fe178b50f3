import { fmt, median, table } from '../shared/stats.js';
import type { DecodeSample } from './page.js';

/** What the page returns. */
export interface BenchResult {
  loadMs: number;
  threads: number;
  decode: DecodeSample[][];
  cancels: Array<{ ms: number; tokensAfter: number; finish: string | undefined }>;
  ghost: Record<string, Array<{ busy: boolean; ms: number; status: string; promptTokens: number; cachedTokens: number }>>;
}

const spread = (values: number[], digits = 1) =>
  `${fmt(Math.min(...values), digits)} / ${fmt(median(values), digits)} / ${fmt(Math.max(...values), digits)}`;

/** Prints the tables and returns the summary figures. */
export function report(result: BenchResult, repetitions: number) {
  const rounds = result.decode;
  const rates = (kind: 'raw' | 'pool', field: 'consumer' | 'engine') =>
    rounds.flatMap((r) => r.filter((s) => s.kind === kind).map((s) => s[field]));
  // Per round: pool over the mean of its two raw runs; noise: the second raw run over the first.
  const ratios = rounds.map((r) => {
    const raw = r.filter((s) => s.kind === 'raw').map((s) => s.consumer);
    const pool = r.find((s) => s.kind === 'pool')!.consumer;
    return { pool: pool / ((raw[0]! + raw[1]!) / 2), noise: raw[1]! / raw[0]! };
  });
  const poolRatios = ratios.map((r) => r.pool);
  const noise = ratios.map((r) => Math.abs(1 - r.noise));
  const noiseBand = Math.max(...noise);
  const poolMedian = median(poolRatios);
  const verdict =
    Math.abs(1 - poolMedian) <= noiseBand
      ? `within the noise of two raw runs (±${fmt(noiseBand * 100)}%)`
      : `outside the noise of two raw runs (±${fmt(noiseBand * 100)}%)`;

  console.log(
    `\nwllama, ~8M-parameter Q8_0 test model, ${result.threads} thread, headless Chromium; load ${fmt(result.loadMs, 0)} ms; ${repetitions} rounds\n`,
  );
  console.log(
    table(
      ['decode tok/s (min / median / max)', 'seen by the consumer', "llama.cpp's own"],
      [
        ['raw engine (2 runs a round)', spread(rates('raw', 'consumer')), spread(rates('raw', 'engine'))],
        ['through the pool', spread(rates('pool', 'consumer')), spread(rates('pool', 'engine'))],
      ],
    ),
  );
  console.log(
    `\npool ÷ raw: ${spread(poolRatios, 3)} (min / median / max); raw ÷ raw: ${spread(
      ratios.map((r) => r.noise),
      3,
    )}: ${verdict}`,
  );
  const cancelMs = result.cancels.map((c) => c.ms);
  console.log(
    `cancel to final chunk: ${spread(cancelMs)} ms; tokens after the cancel: ${result.cancels.map((c) => c.tokensAfter).join(', ')}; finish: ${[...new Set(result.cancels.map((c) => c.finish))].join(', ')}`,
  );

  const ghost: Record<string, unknown> = {};
  for (const [name, rows] of Object.entries(result.ghost)) {
    const part = (busy: boolean) => rows.filter((r) => r.busy === busy);
    console.log(`\nghost text, prompt "${name}" before the caret, one keystroke more each time\n`);
    console.log(
      table(
        ['pool', 'first token ms (min / median / max)', 'prompt tokens read', 'reused from cache', 'status'],
        [false, true].map((busy) => [
          busy ? 'translation running (preempted)' : 'idle',
          spread(part(busy).map((r) => r.ms)),
          spread(
            part(busy).map((r) => r.promptTokens),
            0,
          ),
          spread(
            part(busy).map((r) => r.cachedTokens),
            0,
          ),
          [...new Set(part(busy).map((r) => r.status))].join(', '),
        ]),
      ),
    );
    ghost[name] = {
      idleMs: median(part(false).map((r) => r.ms)),
      busyMs: median(part(true).map((r) => r.ms)),
      idleRead: median(part(false).map((r) => r.promptTokens)),
      idleCached: median(part(false).map((r) => r.cachedTokens)),
    };
  }
  return {
    rawTps: median(rates('raw', 'consumer')),
    poolTps: median(rates('pool', 'consumer')),
    poolRatio: poolMedian,
    noiseBand,
    cancelMs: median(cancelMs),
    ghost,
  };
}
