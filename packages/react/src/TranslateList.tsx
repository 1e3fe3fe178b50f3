import { type TranslateListProps, useTranslateList } from './useTranslateList.js';

/**
 * A batch translation as a table: each source beside its translation (partial
 * while it streams) and status (`data-status` on each row:
 * `queued | running | done | error | cancelled`), a progress bar, and
 * Cancel and Retry buttons, plus Translate with `enabled={false}`. The batch is one preemptible pool
 * task, so ghost text cuts in while it runs. Needs a `<PoolProvider>`.
 *
 * @example
 * <TranslateList items={['Good morning', 'See you soon']} to="fr" />
 */
export function TranslateList(props: TranslateListProps) {
  const { rootProps, labels, progressProps, progressLabel, startButtonProps, cancelButtonProps, retryButtonProps, rows } = useTranslateList(props);
  return (
    <div {...rootProps}>
      <div className="inkling-translate-toolbar">
        <progress {...progressProps} />
        <span className="inkling-translate-progress-label">{progressLabel}</span>
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
          {rows.map((row, index) => (
            // Items may repeat, so their place is their identity.
            // oxlint-disable-next-line react/no-array-index-key
            <tr key={index} {...row.rowProps}>
              <td {...row.sourceProps}>{row.source}</td>
              <td {...row.translationProps}>{row.text}</td>
              <td>
                <span className="inkling-status">{row.statusLabel}</span>
                {row.error ? <span className="inkling-translate-error">{row.error.message}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
