import { type PoolStatus } from '@inkling/scheduler';
import { checkDuration } from '@inkling/scheduler/engine';
import { useEffect, useMemo, useState } from 'react';
import { type PoolInspection, inspectPool } from './core/inspectPool.js';
import { usePoolStatus } from '../base/usePoolStatus.js';

/** Options of `usePoolInspector` (and props of `PoolInspector`). */
export interface UsePoolInspectorOptions {
  /** The pool's clock. Default `performance.now()`, the pool's own default. */
  now?: () => number;
  /** How often running jobs' times move on while any job is live, in ms; `Infinity`: never. Default `250`. */
  tickMs?: number;
}

/** What `usePoolInspector` returns. */
export interface UsePoolInspectorResult {
  status: PoolStatus;
  inspection: PoolInspection;
}

const performanceNow = () => performance.now();

/**
 * The pool live, made readable: `usePoolStatus` through `inspectPool`
 * (engines and their jobs, queues per priority, recent jobs with outcome,
 * time to first token and tokens per second), with live jobs' times moving
 * on every `tickMs` while any job is live. Needs a `<PoolProvider>`.
 *
 * @example
 * const { inspection } = usePoolInspector();
 * <p>{inspection.counts.preempted} preempted, {inspection.counts.superseded} superseded</p>
 */
export function usePoolInspector(options: UsePoolInspectorOptions = {}): UsePoolInspectorResult {
  const { now: clock = performanceNow, tickMs = 250 } = options;
  checkDuration(tickMs, 'usePoolInspector() "tickMs"');
  const status = usePoolStatus();
  const live = status.jobs.length > 0;
  const [now, setNow] = useState(clock);
  useEffect(() => {
    // `Infinity` means never (an interval would overflow and fire every millisecond).
    if (!live || !Number.isFinite(tickMs)) return;
    setNow(clock());
    const timer = setInterval(() => setNow(clock()), tickMs);
    return () => {
      clearInterval(timer);
      setNow(clock());
    };
  }, [live, clock, tickMs]);
  const inspection = useMemo(() => inspectPool(status, now), [status, now]);
  return { status, inspection };
}
