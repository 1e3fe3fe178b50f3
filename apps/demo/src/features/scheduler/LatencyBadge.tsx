import { usePoolStatus } from '@inkling/react';
import { useEffect, useState } from 'react';

/** Re-renders every 100 ms while `on`, so a wait can be counted as it grows. */
function useTicking(on: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setTick((n) => n + 1), 100);
    return () => clearInterval(timer);
  }, [on]);
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * How long the editor's last suggestion took from the request a keystroke
 * made to its first token, read from the pool's jobs of `session`; while one
 * waits, how long it has waited so far. It is the scheduler's effect in one
 * number: around a tenth of a second while a translation runs, unless the
 * scheduler's priority is off.
 */
export function LatencyBadge({ session }: { session: string }) {
  const { jobs, recent } = usePoolStatus();
  const waiting = jobs.find((job) => job.session === session && job.firstTokenAt === undefined);
  const answered =
    jobs.find((job) => job.session === session && job.firstTokenAt !== undefined) ??
    recent.findLast((job) => job.session === session && job.firstTokenAt !== undefined);
  useTicking(waiting !== undefined);
  if (waiting) {
    return (
      <span className="latency-badge" data-state="waiting" title="Time since this keystroke's suggestion was asked for">
        Suggestion waiting {duration(performance.now() - waiting.submittedAt)}
      </span>
    );
  }
  if (answered?.firstTokenAt !== undefined) {
    return (
      <span className="latency-badge" data-state="answered" title="From the keystroke's request to the suggestion's first token">
        First token in {duration(answered.firstTokenAt - answered.submittedAt)}
      </span>
    );
  }
  return <span className="latency-badge" data-state="none" />;
}
