import { useModelLoadProgress, usePoolStatus } from '@inkling/react';
import { type ReactNode, useState } from 'react';

interface EngineBarProps {
  /** What the engine is called, e.g. "Simulated engine". */
  name: string;
  simulated: boolean;
  /** Whether the pool was asked to load (a real model waits for a person). */
  loading: boolean;
  /** The engine choice: the picker, the offers and their reasons. */
  children: ReactNode;
}

/** The engine's state in a few words, on the header's one line: while it downloads, how far ("loading 40% (3.6 MB of 9 MB)"). */
function stateText(loading: boolean, phase: string, percent: number, detail: string): string {
  if (!loading) return 'not running';
  if (phase === 'error') return 'failed to load';
  if (phase === 'ready') return 'ready';
  return detail ? `loading ${percent}% (${detail})` : `loading ${percent}%`;
}

/**
 * The header's one line, "Runs on: … · Change", and under it the engine
 * choice, shown on request. It is open from the start while nothing runs,
 * since choosing is then the one thing to do. A load that fails later opens
 * it over the page (the error whole, with what to do), so nothing below
 * moves; Close or Change puts it back. Choosing an engine builds a new
 * provider, so the choice closes again.
 */
export function EngineBar({ name, simulated, loading, children }: EngineBarProps) {
  const { phase } = usePoolStatus();
  const { percent, detailText } = useModelLoadProgress();
  const [asked, setAsked] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const failed = loading && phase === 'error' && !dismissed;
  const open = asked || !loading || failed;
  // A failure is news that came after the first paint: shown over the page, not pushing it down.
  const over = failed && !asked;
  const toggle = () => {
    setAsked(!open);
    setDismissed(open);
  };
  return (
    <>
      <header className="app-header">
        <h1>
          Inkling <span className="app-subtitle">notes</span>
        </h1>
        <p className="engine-line" data-phase={loading ? phase : 'idle'}>
          <span className="muted">Runs on:</span> <strong>{name}</strong>
          {simulated ? (
            <span className="badge simulated" title="No model is running: a fake engine makes up plausible text.">
              Simulated
            </span>
          ) : null}
          <span className="engine-state">· {stateText(loading, phase, percent, detailText)}</span>
          {loading ? (
            <>
              <span aria-hidden="true">·</span>
              <button type="button" className="link-button" aria-expanded={open} aria-controls="engine-panel" onClick={toggle}>
                {open ? 'Close' : 'Change'}
              </button>
            </>
          ) : null}
        </p>
      </header>
      {open ? (
        <section id="engine-panel" className="engine-panel" aria-label="Engine" data-over={over ? 'true' : undefined}>
          {children}
        </section>
      ) : null}
    </>
  );
}
