import { useEffect, useLayoutEffect } from 'react';

/**
 * `useLayoutEffect` in a browser, `useEffect` on the server (where neither
 * runs, and React 18 warns about the first).
 *
 * @example
 * useIsomorphicLayoutEffect(() => overlay.sync(), [suggestion]);
 */
export const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
