import { usePool, usePoolStatus } from '@inkling/react';

/**
 * How the connection to the translation server goes, under its
 * `PoolProvider`: connecting, connected, or the error the library built
 * (such as "Could not reach the server at …") with a way to try again.
 */
export function ServerStatus({ name }: { name: string }) {
  const pool = usePool();
  const { phase, error } = usePoolStatus();
  if (phase === 'error' && error) {
    return (
      <div className="server-status" data-phase="error" role="alert">
        <p>{error.message}</p>
        <button type="button" className="button" onClick={() => void pool.load().catch(() => {})}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <p className="server-status" data-phase={phase} role="status">
      {phase === 'ready' ? `Connected to ${name}.` : phase === 'loading' ? `Connecting to ${name}…` : `Not connected to ${name}.`}
    </p>
  );
}
