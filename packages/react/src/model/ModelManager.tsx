import { type ModelManagerProps, useModelManager } from './useModelManager.js';

/**
 * The models stored on this device: each with its size (or how much of a
 * partial download is there) and a Delete button that asks first; the
 * storage used and free; whether the browser keeps them, with a button to
 * ask it to. A model the browser keeps (its built-in ones) shows "Size
 * decided by the browser" and, instead of Delete, where the person manages
 * it. A model a tab (this or another) is downloading shows how much has
 * arrived, read again every second until it ends; one it is loading says so;
 * neither offers Delete meanwhile, and a delete refused for that reason says
 * to wait, naming the model by its name. Inside a `<PoolProvider>`, the list
 * is read again when the pool's load ends. Where the browser makes up its
 * free space (Chrome's usage + 10 GB), only the space used is shown. Unstyled; `data-status` is `loading | ready | error`,
 * `data-persisted` says whether storage is kept, each row has `data-complete`.
 * Needs no `<PoolProvider>`.
 *
 * @example
 * const storage = wllamaModelStorage(); // at module scope
 * <ModelManager storage={storage} />
 */
export function ModelManager(props: ModelManagerProps) {
  const m = useModelManager(props);
  const { status, error, deleting } = m.storage;
  return (
    <section {...m.rootProps}>
      <h2 className="inkling-model-manager-title">{m.labels.title}</h2>
      {m.roomText ? <p className="inkling-model-manager-room">{m.roomText}</p> : null}
      {m.persistText ? (
        <p className="inkling-model-manager-persist">
          {m.persistText} {m.storage.persisted === false ? <button {...m.persistButtonProps} /> : null}
        </p>
      ) : null}
      {status === 'loading' ? <p className="inkling-model-manager-loading">{m.labels.loading}</p> : null}
      {status !== 'loading' && m.rows.length === 0 ? <p className="inkling-model-manager-empty">{m.labels.empty}</p> : null}
      {m.rows.length > 0 ? (
        <ul className="inkling-model-manager-list">
          {m.rows.map((row) => (
            <li key={row.model.model} {...row.rowProps}>
              <span className="inkling-model-manager-name">{row.name}</span>{' '}
              <span className="inkling-model-manager-size">{row.sizeText}</span>{' '}
              {row.managedText !== undefined ? (
                <span className="inkling-model-manager-managed">{row.managedText}</span>
              ) : deleting === row.model.model ? (
                <span>{m.labels.deleting}</span>
              ) : (
                <button {...row.deleteButtonProps} />
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {m.confirmText ? (
        <div className="inkling-model-manager-confirm" role="alertdialog" aria-label={m.confirmText}>
          <p>{m.confirmText}</p>
          <button {...m.confirmButtonProps} /> <button {...m.cancelButtonProps} />
        </div>
      ) : m.deletable > 1 ? (
        <button {...m.deleteAllButtonProps} />
      ) : null}
      {status === 'error' && error ? (
        <p className="inkling-model-manager-error" role="alert">
          {m.errorText}
        </p>
      ) : null}
    </section>
  );
}
