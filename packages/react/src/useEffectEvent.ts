import { useCallback, useInsertionEffect, useLayoutEffect, useRef } from 'react';

// Insertion effects run before every other effect, so the latest function is
// in place before any effect or event can call it. React 18.0+ has them.
const useEarliestEffect = typeof useInsertionEffect === 'function' ? useInsertionEffect : useLayoutEffect;

/**
 * A stable function that always calls the latest `fn`: pass callbacks from
 * props to long-lived objects without re-subscribing when they change. Call
 * it from effects and events, never during render.
 *
 * @example
 * const finish = useEffectEvent((result: JobResult) => props.onFinish?.(result));
 * useEffect(() => controller.setOptions({ onFinish: finish }), [controller, finish]);
 */
export function useEffectEvent<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result {
  const latest = useRef(fn);
  useEarliestEffect(() => {
    latest.current = fn;
  }, [fn]);
  return useCallback((...args: Args) => latest.current(...args), []);
}
