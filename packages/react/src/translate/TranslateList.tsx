import { memo } from 'react';
import { type TranslateListProps, type TranslateListRow, useTranslateList } from './useTranslateList.js';

/** One row; `useTranslateList` keeps a row object while nothing of it changes, so only changed rows render. */
const Row = memo(function TranslateListItem({ row }: { row: TranslateListRow }) {
  return (
    <tr {...row.rowProps}>
      <td {...row.sourceProps}>{row.source}</td>
      <td {...row.translationProps}>{row.text}</td>
      <td>
        <span className="inkling-status">{row.statusLabel}</span>
        {row.errorText ? <span className="inkling-translate-error">{row.errorText}</span> : null}
      </td>
    </tr>
  );
});

/** Rows per block: a frame that changes a few rows renders their blocks, not every row of a long list. */
const BLOCK_ROWS = 64;

interface BlockProps {
  rows: readonly TranslateListRow[];
  start: number;
}

/** Whether a block's rows are the same objects as before (then it need not render). */
function sameBlock(a: BlockProps, b: BlockProps): boolean {
  if (a.start !== b.start) return false;
  const end = Math.min(b.start + BLOCK_ROWS, Math.max(a.rows.length, b.rows.length));
  for (let i = b.start; i < end; i += 1) if (a.rows[i] !== b.rows[i]) return false;
  return true;
}

/** Rows `start` to `start + BLOCK_ROWS` of the table, straight into its body (no element of its own). */
const Block = memo(function TranslateListBlock({ rows, start }: BlockProps) {
  return rows.slice(start, start + BLOCK_ROWS).map((row, offset) => (
    // Items may repeat, so their place is their identity.
    // oxlint-disable-next-line react/no-array-index-key
    <Row key={start + offset} row={row} />
  ));
}, sameBlock);

/**
 * A batch translation as a table: each source beside its translation (partial
 * while it streams) and status (`data-status` on each row:
 * `queued | streaming | done | error | cancelled`), a progress bar, and
 * Cancel and Retry buttons, plus Translate with `enabled={false}`. The batch is one preemptible pool
 * task, so ghost text cuts in while it runs. Needs a `<PoolProvider>`.
 *
 * @example
 * <TranslateList items={['Good morning', 'See you soon']} to="fr" />
 */
export function TranslateList(props: TranslateListProps) {
  const { rootProps, labels, progressProps, progressLabel, announcerProps, startButtonProps, cancelButtonProps, retryButtonProps, rows } =
    useTranslateList(props);
  return (
    <div {...rootProps}>
      <div className="inkling-translate-toolbar">
        <progress {...progressProps} />
        <span className="inkling-translate-progress-label">{progressLabel}</span>
        <span {...announcerProps} />
        <span className="inkling-translate-actions">
          {/* Started by hand only when `enabled` is off; otherwise the batch starts itself and the button could never be pressed. */}
          {props.enabled === false ? <button {...startButtonProps}>{labels.start}</button> : null}
          <button {...cancelButtonProps}>{labels.cancel}</button>
          <button {...retryButtonProps}>{labels.retry}</button>
        </span>
      </div>
      <table className="inkling-translate-table" aria-label={labels.list}>
        <thead>
          <tr>
            <th scope="col">{labels.source}</th>
            <th scope="col">{labels.translation}</th>
            <th scope="col">{labels.status}</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: Math.ceil(rows.length / BLOCK_ROWS) }, (_, block) => (
            <Block key={block} rows={rows} start={block * BLOCK_ROWS} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
