import { useCallback, useInsertionEffect, useLayoutEffect, useRef } from 'react';

// Insertion effects run before every other effect, so the latest function is
// in place before any effect or event can call it. React 18.0+ has them.
const useEarliestEffect = typeof useInsertionEffect === 'function' ? useInsertionEffect : useLayoutEffect;

/**
 * A stable function that always calls the latest `fn`, in the manner of
 * React's `useEffectEvent` (which React 18 lacks, and whose result may not be
 * passed on): hand callbacks from props to a long-lived controller without
 * re-subscribing when they change. Call it from effects, events and the
 * controller, never during render.
 *
 * @example
 * const finish = useLatestCallback((result: JobResult) => props.onFinish?.(result));
 * useEffect(() => controller.setOptions({ onFinish: finish }), [controller, finish]);
 */
export function useLatestCallback<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result {
  const latest = useRef(fn);
  useEarliestEffect(() => {
    latest.current = fn;
  }, [fn]);
  return useCallback((...args: Args) => latest.current(...args), []);
}
