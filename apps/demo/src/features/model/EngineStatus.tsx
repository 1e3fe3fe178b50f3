import { ModelLoadProgress } from '@inkling/react';

interface EngineStatusProps {
  /** Whether this browser can run the chosen engine at all. */
  runnable: boolean;
  /** Whether the pool was asked to load (a real model waits for a person). */
  loading: boolean;
  onLoad: () => void;
  /** Whether the self-hosted form is open: "Load model" waits for it, since it would load the model being replaced. */
  editing?: boolean;
}

/**
 * The line under the model picker, in a box of fixed height so the header
 * never grows or shrinks as the state changes: nothing to run, a model not
 * loaded yet (and its button), or the download and load.
 */
export function EngineStatus({ runnable, loading, onLoad, editing = false }: EngineStatusProps) {
  let body;
  if (editing && !loading) body = <p className="engine-status-line">Fill in the self-hosted model below, or cancel it.</p>;
  // Nothing runs here: the header's line says so, and the offers are the next thing to read.
  else if (!runnable) return null;
  else if (!loading) {
    body = (
      <p className="engine-status-line">
        Model not loaded.
        <button type="button" className="button primary" onClick={onLoad}>
          Load model
        </button>
      </p>
    );
  } else body = <ModelLoadProgress className="model-progress" />;
  return <div className="engine-status">{body}</div>;
}
