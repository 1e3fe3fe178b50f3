import { type ModelLoadProgressProps, useModelLoadProgress } from './useModelLoadProgress.js';

/**
 * The model's download and load: a progress bar with the phase, bytes and
 * time left when known; when idle a Load button; on failure what to do about
 * it (no WebGPU, out of memory, a model URL that fails, ...) in one
 * paragraph, a Try again button, and the error's own message one click away
 * (a `<details>` that opens over the page, so it moves nothing); where the
 * browser downloads only from a click (Chrome's built-in models), the
 * advice says so politely (`role="status"`, `data-needs-gesture`) and the
 * button reads "Download model": its press is that click. `data-status` is `idle | loading | ready | error`.
 * Needs a `<PoolProvider>`.
 *
 * @example
 * <PoolProvider pool={pool}>
 *   <ModelLoadProgress />
 * </PoolProvider>
 */
export function ModelLoadProgress(props: ModelLoadProgressProps) {
  const m = useModelLoadProgress(props);
  const { status } = m.load;
  return (
    <div {...m.rootProps}>
      {status === 'error' ? null : (
        <div className="inkling-model-load-row">
          <span className="inkling-model-load-phase">{m.phaseText}</span>
          {status === 'loading' || status === 'ready' ? <span className="inkling-model-load-percent">{m.percent}%</span> : null}
        </div>
      )}
      {status === 'loading' || status === 'ready' ? (
        <div {...m.progressProps}>
          <div className="inkling-model-load-fill" style={{ width: `${m.percent}%` }} />
        </div>
      ) : null}
      {m.detailText ? <div className="inkling-model-load-detail">{m.detailText}</div> : null}
      {status === 'idle' ? <button {...m.loadButtonProps}>{m.labels.load}</button> : null}
      {status === 'error' ? (
        // A download that waits for the person's click is an offer, said politely; a failure is an alert.
        <div className="inkling-model-load-error" role={m.needsGesture ? 'status' : 'alert'}>
          <p className="inkling-model-load-advice">{m.adviceText}</p>
          <div className="inkling-model-load-actions">
            <button {...m.retryButtonProps}>{m.retryText}</button>
            {m.load.error ? (
              <details className="inkling-model-load-details">
                <summary>{m.labels.details}</summary>
                <p className="inkling-model-load-message">{developerDetail(m.load.error)}</p>
              </details>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** The error as a developer reads it: its name and message, and its cause's. */
function developerDetail(error: Error): string {
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.name}: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
