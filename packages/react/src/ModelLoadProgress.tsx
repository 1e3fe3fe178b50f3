import { type ModelLoadProgressProps, useModelLoadProgress } from './useModelLoadProgress.js';

/**
 * The model's download and load: a progress bar with the phase, bytes and
 * time left when known; when idle a Load button; on failure what to do about
 * it (no WebGPU, out of memory, a model URL that fails, ...), the error, and
 * a Try again button. `data-status` is `idle | loading | ready | error`.
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
      <div className="inkling-model-load-row">
        <span className="inkling-model-load-phase">{m.phaseText}</span>
        {status === 'loading' || status === 'ready' ? <span className="inkling-model-load-percent">{m.percent}%</span> : null}
      </div>
      {status === 'loading' || status === 'ready' ? (
        <div {...m.progressProps}>
          <div className="inkling-model-load-fill" style={{ width: `${m.percent}%` }} />
        </div>
      ) : null}
      {m.detailText ? <div className="inkling-model-load-detail">{m.detailText}</div> : null}
      {status === 'idle' ? <button {...m.loadButtonProps}>{m.labels.load}</button> : null}
      {status === 'error' ? (
        <div className="inkling-model-load-error" role="alert">
          <p className="inkling-model-load-advice">{m.adviceText}</p>
          {m.errorText ? <p className="inkling-model-load-message">{m.errorText}</p> : null}
          <button {...m.retryButtonProps}>{m.labels.retry}</button>
        </div>
      ) : null}
    </div>
  );
}
