import { useSyncExternalStore } from 'react';
import type { GhostFigureSet, GhostFigures } from '../core/ghostFigures.js';

/**
 * The figures a `GhostFigures` has gathered, one set per model and prompt
 * builder, re-rendering when an event changes them. Needs no provider.
 *
 * @example
 * const figures = useMemo(() => new GhostFigures(), []);
 * const sets = useGhostFigures(figures);
 * <GhostTextarea aria-label="Note" events={ghostEvents(figures.record)} />
 * <p>{sets.map((set) => `${set.model}: ${Math.round((set.acceptanceByCharacters ?? 0) * 100)}% accepted`)}</p>
 */
export function useGhostFigures(figures: GhostFigures): readonly GhostFigureSet[] {
  return useSyncExternalStore(figures.subscribe, figures.getSnapshot, figures.getSnapshot);
}
