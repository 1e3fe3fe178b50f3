import { fmt, median, table } from '../shared/stats.js';
import type { PauseResult } from './replay.js';

export interface VariantRun {
  readonly note: number;
  readonly variant: 'legacy' | 'prefix-stable';
  readonly rep: number;
  readonly pauses: readonly PauseResult[];
}

/** Per note size and variant: median prefilled tokens and first-token time per pause, the first (cold) pause of each run left out. */
export function summarize(runs: readonly VariantRun[]) {
  const keys = [...new Set(runs.map((r) => `${r.note}|${r.variant}`))];
  return keys.map((key) => {
    const [note, variant] = key.split('|') as [string, VariantRun['variant']];
    const warm = runs.filter((r) => `${r.note}|${r.variant}` === key).flatMap((r) => r.pauses.slice(1));
    const prefilled = warm.map((p) => p.promptTokens - (Number.isNaN(p.cachedTokens) ? 0 : p.cachedTokens));
    const perRun = runs.filter((r) => `${r.note}|${r.variant}` === key).map((r) => median(r.pauses.slice(1).map((p) => p.firstTokenMs)));
    return {
      note: Number(note),
      variant,
      pauses: warm.length,
      promptTokens: median(warm.map((p) => p.promptTokens)),
      prefilledTokens: median(prefilled),
      meanPrefilled: prefilled.reduce((a, b) => a + b, 0) / Math.max(1, prefilled.length),
      firstTokenMs: median(warm.map((p) => p.firstTokenMs)),
      firstTokenRunMedians: perRun.toSorted((a, b) => a - b),
    };
  });
}

export function report(rows: ReturnType<typeof summarize>): string {
  const byNote = new Map<number, typeof rows>();
  for (const row of rows) byNote.set(row.note, [...(byNote.get(row.note) ?? []), row]);
  const lines: string[][] = [];
  for (const [note, pair] of byNote) {
    const legacy = pair.find((r) => r.variant === 'legacy');
    for (const row of pair) {
      const runs = row.firstTokenRunMedians;
      lines.push([
        `${note} chars`,
        row.variant,
        fmt(row.promptTokens, 0),
        fmt(row.prefilledTokens, 0),
        fmt(row.meanPrefilled, 1),
        legacy && row !== legacy ? `x${fmt(legacy.meanPrefilled / Math.max(row.meanPrefilled, 1e-9), 1)} fewer` : 'baseline',
        `${fmt(row.firstTokenMs, 1)} (${fmt(runs[0] ?? Number.NaN, 1)}–${fmt(runs.at(-1) ?? Number.NaN, 1)})`,
        legacy && row !== legacy ? `x${fmt(legacy.firstTokenMs / row.firstTokenMs, 2)} sooner` : 'baseline',
      ]);
    }
  }
  return table(
    [
      'note',
      'prompt',
      'prompt tokens p50',
      'prefilled p50',
      'prefilled mean',
      'prefill vs legacy',
      'first token ms p50 (run medians min–max)',
      'vs legacy',
    ],
    lines,
  );
}
