import { Store } from '../../base/core/store.js';
import type { GhostTextEvent } from './ghostTextEvent.js';

/**
 * How ghost text did for one model and prompt builder, from the events recorded so far.
 *
 * @example
 * const [set] = useGhostFigures(figures);
 * const line = set && `${set.model}: ${Math.round((set.acceptanceByCharacters ?? 0) * 100)}% of characters kept, p95 ${set.firstGlyphP95} ms`;
 */
export interface GhostFigureSet {
  readonly model: string;
  readonly promptBuilder: string;
  /** Suggestions shown. */
  readonly shown: number;
  /** Suggestions of which something was accepted (all of it, or a word). */
  readonly accepted: number;
  readonly rejected: number;
  /** Requests that ended unused for another reason than the person's (a newer one, another model, disabled). */
  readonly superseded: number;
  readonly failed: number;
  /** Characters shown in all, and accepted with Tab or by word (typed through not counted). */
  readonly shownCharacters: number;
  readonly acceptedCharacters: number;
  /** `acceptedCharacters / shownCharacters`; `null` before anything was shown. */
  readonly acceptanceByCharacters: number | null;
  /** `accepted / shown`; `null` before anything was shown. */
  readonly acceptanceBySuggestions: number | null;
  /** Keystroke → first glyph, ms: the median and the 95th percentile (nearest rank) of the last 1024 shown; `null` before any. */
  readonly firstGlyphP50: number | null;
  readonly firstGlyphP95: number | null;
  /** Share of shown suggestions served without waiting for an engine call (from the cache or the speculation); `null` before any. */
  readonly withoutEngineCall: number | null;
}

const SAMPLES = 1024;

interface Tally {
  model: string;
  promptBuilder: string;
  shown: number;
  rejected: number;
  superseded: number;
  failed: number;
  shownCharacters: number;
  acceptedCharacters: number;
  withoutEngineCall: number;
  firstGlyph: number[];
  /** The suggestions of which something was accepted (session and number). */
  acceptedIds: Set<string>;
}

/** The nearest-rank percentile `p` (0..1) of `values`, or `null` for none. */
function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? null;
}

/**
 * Figures from `GhostTextEvent`s, one set per model and prompt builder:
 * acceptance by characters and by suggestions, keystroke → first glyph p50
 * and p95, and the share served without an engine call. Framework-free, an
 * external store (`subscribe` / `getSnapshot`, a new array only after a
 * change, built when read); `useGhostFigures` renders it. It keeps counts and
 * times only, never text.
 *
 * @example
 * const figures = new GhostFigures();
 * <GhostTextarea aria-label="Note" events={ghostEvents(figures.record)} />
 * figures.getSnapshot()[0]?.acceptanceByCharacters; // 0.42
 */
export class GhostFigures extends Store<readonly GhostFigureSet[]> {
  readonly #tallies = new Map<string, Tally>();

  constructor() {
    super([]);
  }

  /** Counts one event. Bound, so it can be handed to `ghostEvents` as it is. */
  readonly record = (event: GhostTextEvent): void => {
    const key = `${event.model}\u0000${event.promptBuilder}`;
    let tally = this.#tallies.get(key);
    if (!tally) {
      const { model, promptBuilder } = event;
      const counts = { shown: 0, rejected: 0, superseded: 0, failed: 0, shownCharacters: 0, acceptedCharacters: 0, withoutEngineCall: 0 };
      tally = { model, promptBuilder, ...counts, firstGlyph: [], acceptedIds: new Set<string>() };
      this.#tallies.set(key, tally);
    }
    switch (event.type) {
      case 'shown':
        tally.shown += 1;
        tally.shownCharacters += event.characters;
        if (event.source !== 'engine') tally.withoutEngineCall += 1;
        tally.firstGlyph.push(event.firstGlyphMs);
        if (tally.firstGlyph.length > SAMPLES) tally.firstGlyph.shift();
        break;
      case 'accepted':
        tally.acceptedCharacters += event.characters;
        tally.acceptedIds.add(`${event.session}\u0000${event.suggestion}`);
        break;
      case 'rejected':
      case 'superseded':
      case 'failed':
        tally[event.type] += 1;
        break;
      case 'typedThrough':
        return;
    }
    this.commitLazy(() => [...this.#tallies.values()].map((entry) => this.#figures(entry)), 'now');
  };

  /** Forgets everything recorded. */
  reset(): void {
    this.#tallies.clear();
    this.commit([], 'now');
  }

  #figures(tally: Tally): GhostFigureSet {
    const { model, promptBuilder, shown, rejected, superseded, failed, shownCharacters, acceptedCharacters } = tally;
    const accepted = tally.acceptedIds.size;
    return {
      model,
      promptBuilder,
      shown,
      accepted,
      rejected,
      superseded,
      failed,
      shownCharacters,
      acceptedCharacters,
      acceptanceByCharacters: shownCharacters ? acceptedCharacters / shownCharacters : null,
      acceptanceBySuggestions: shown ? accepted / shown : null,
      firstGlyphP50: percentile(tally.firstGlyph, 0.5),
      firstGlyphP95: percentile(tally.firstGlyph, 0.95),
      withoutEngineCall: shown ? tally.withoutEngineCall / shown : null,
    };
  }
}
