import type { GhostFigures } from '../ghost/core/ghostFigures.js';
import { useGhostFigures } from '../ghost/hooks/useGhostFigures.js';
import { formatMs } from './core/format.js';

/** A share for a cell: `42%`; `–` before anything was shown. */
function percent(share: number | null): string {
  return share === null ? '–' : `${Math.round(share * 100)}%`;
}

/**
 * How ghost text did, one row per model and prompt builder, from a
 * `GhostFigures` the app feeds with `ghostEvents(figures.record)`:
 * suggestions shown, acceptance by characters and by suggestions, keystroke →
 * first glyph p50 and p95, and the share shown without waiting for an engine
 * call. Counts and times only, never text. `PoolInspector` shows it when
 * given `ghostFigures`.
 *
 * @example
 * <GhostFiguresTable figures={figures} />
 */
export function GhostFiguresTable({ figures }: { figures: GhostFigures }) {
  const sets = useGhostFigures(figures);
  return (
    <table className="inkling-ghost-figures">
      <caption>Ghost text</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Prompt</th>
          <th scope="col" className="inkling-num">
            Shown
          </th>
          <th scope="col" className="inkling-num">
            <abbr title="Characters accepted (Tab or by word) of the characters shown">Chars kept</abbr>
          </th>
          <th scope="col" className="inkling-num">
            <abbr title="Suggestions of which something was accepted, of those shown">Kept</abbr>
          </th>
          <th scope="col" className="inkling-num">
            <abbr title="Keystroke to first glyph, median">p50</abbr>
          </th>
          <th scope="col" className="inkling-num">
            <abbr title="Keystroke to first glyph, 95th percentile">p95</abbr>
          </th>
          <th scope="col" className="inkling-num">
            <abbr title="Shown from the cache or the speculation, without waiting for an engine call">No call</abbr>
          </th>
        </tr>
      </thead>
      <tbody>
        {sets.length === 0 ? (
          <tr>
            <td colSpan={8} className="inkling-empty">
              No suggestions yet
            </td>
          </tr>
        ) : null}
        {sets.map((set) => (
          <tr key={`${set.model}\u0000${set.promptBuilder}`} data-model={set.model} data-prompt-builder={set.promptBuilder}>
            <td className="inkling-ghost-name">{set.model || '–'}</td>
            <td className="inkling-ghost-name">
              <code>{set.promptBuilder || '–'}</code>
            </td>
            <td className="inkling-num">{set.shown}</td>
            <td className="inkling-num">{percent(set.acceptanceByCharacters)}</td>
            <td className="inkling-num">{percent(set.acceptanceBySuggestions)}</td>
            <td className="inkling-num">{formatMs(set.firstGlyphP50)}</td>
            <td className="inkling-num">{formatMs(set.firstGlyphP95)}</td>
            <td className="inkling-num">{percent(set.withoutEngineCall)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
