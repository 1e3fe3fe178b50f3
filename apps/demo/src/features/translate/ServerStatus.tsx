import { usePool, usePoolStatus } from '@inkling/react';

/**
 * How the connection to the translation server goes, under its
 * `PoolProvider`: connecting, connected, or failed, said for the person
 * using the app, with a way to try again and the library's own error (such
 * as "Could not reach the server at …") one click away. Its box has one
 * height in every phase, so the rows below never move.
 */
export function ServerStatus({ name }: { name: string }) {
  const pool = usePool();
  const { phase, error } = usePoolStatus();
  let body;
  if (phase === 'error' && error) {
    body = (
      <div className="server-status" data-phase="error" role="alert">
        <p>
          <strong>The translation server could not be used.</strong> Check that it is running, its address and the model name, then try
          again.
        </p>
        <div className="server-status-actions">
          <button type="button" className="button" onClick={() => void pool.load().catch(() => {})}>
            Try again
          </button>
          <details className="error-details">
            <summary>Details</summary>
            <p>{error.message}</p>
          </details>
        </div>
      </div>
    );
  } else {
    body = (
      <p className="server-status" data-phase={phase} role="status">
        {phase === 'ready' ? `Connected to ${name}.` : phase === 'loading' ? `Connecting to ${name}…` : `Not connected to ${name}.`}
      </p>
    );
  }
  return <div className="server-status-box">{body}</div>;
}
