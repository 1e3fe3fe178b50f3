import { fmt, median, percentile, table } from '../shared/stats.js';
import type { Variant, VariantRun } from './writer/page.js';

/** One frame at 60 Hz. */
const FRAME_MS = 1000 / 60;

const range = (values: readonly number[]) => {
  const sorted = values.filter(Number.isFinite).toSorted((a, b) => a - b);
  return `${fmt(sorted[0] ?? Number.NaN, 1)} / ${fmt(median(sorted), 1)} / ${fmt(sorted.at(-1) ?? Number.NaN, 1)}`;
};

/** The writer experiment per controller, and the translation experiment per speculation setting. */
export function writerReport(runs: readonly VariantRun[]): string {
  const of = (variant: Variant) => runs.filter((r) => r.variant === variant);
  const writer = (['today', 'cache+speculation'] as const).map((variant) => {
    const rs = of(variant);
    const waits = rs.flatMap((r) => r.waits);
    const shown = waits.filter((w) => Number.isFinite(w.ms));
    const pauses = shown.filter((w) => w.after !== 'tab').map((w) => w.ms);
    const tabs = shown.filter((w) => w.after === 'tab').map((w) => w.ms);
    const tokens = rs.reduce((a, r) => a + r.tokens, 0);
    const accepted = rs.reduce((a, r) => a + r.acceptedChars, 0);
    return {
      variant,
      shown: shown.length,
      waits: waits.length,
      noNewCall: shown.filter((w) => !w.newCall).length / Math.max(1, shown.length),
      withinFrame: shown.filter((w) => w.ms <= FRAME_MS).length / Math.max(1, shown.length),
      pauseP50: median(pauses),
      pauseP95: percentile(pauses, 95),
      backspaceP50: median(shown.filter((w) => w.after === 'backspace').map((w) => w.ms)),
      tabP50: median(tabs),
      tabP95: percentile(tabs, 95),
      tabCachedP50: median(shown.filter((w) => w.after === 'tab' && w.fromCache).map((w) => w.ms)),
      tabCached: shown.filter((w) => w.after === 'tab' && w.fromCache).length,
      tabCount: tabs.length,
      perChar: tokens / Math.max(1, accepted),
      accepted,
      prefilled: median(rs.flatMap((r) => r.prefilled)),
    };
  });
  const today = writer[0]!;
  const lines = table(
    [
      'controller',
      'shown/waits',
      'shown w/o new call',
      'within a frame',
      'pause→sugg p50 / p95 ms',
      'backspace→sugg p50',
      'accept→next p50 / p95 ms',
      'accept→next from cache: share, p50 ms',
      'tokens per accepted char',
      'vs today',
      'interactive prefill p50 (tokens)',
    ],
    writer.map((w) => [
      w.variant,
      `${w.shown}/${w.waits}`,
      `${fmt(100 * w.noNewCall, 0)}%`,
      `${fmt(100 * w.withinFrame, 0)}%`,
      `${fmt(w.pauseP50, 1)} / ${fmt(w.pauseP95, 1)}`,
      fmt(w.backspaceP50, 1),
      `${fmt(w.tabP50, 1)} / ${fmt(w.tabP95, 1)}`,
      `${w.tabCached}/${w.tabCount}, ${fmt(w.tabCachedP50, 1)}`,
      `${fmt(w.perChar, 2)} (${w.accepted} chars)`,
      w === today ? 'baseline' : `x${fmt(w.perChar / today.perChar, 2)} tokens`,
      fmt(w.prefilled, 0),
    ]),
  );
  const translation = (['speculation off', 'speculation off again', 'speculation on'] as const)
    .filter((v) => of(v).length > 0)
    .map((variant) => {
      const rs = of(variant);
      return [
        variant,
        String(rs.length),
        range(rs.map((r) => (1000 * r.translationTokens) / r.wallMs)),
        range(rs.map((r) => (1000 * r.translations) / r.wallMs)),
        range(rs.map((r) => median(r.firstTokenMs))),
      ];
    });
  const second = table(
    [
      'under a translation',
      'runs',
      'translation tokens/s min / median / max',
      'translations/s',
      'ghost first token ms (run medians) min / median / max',
    ],
    translation,
  );
  return `${lines}\n\n${second}`;
}
