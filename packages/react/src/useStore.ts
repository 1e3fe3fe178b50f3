import { useSyncExternalStore } from 'react';

/** Anything with `subscribe` and `getSnapshot`: a controller, the pool. */
export interface ExternalStore<S> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): S;
}

/**
 * Reads an external store with `useSyncExternalStore`; the server snapshot is
 * the store's current state.
 *
 * @example
 * const state = useStore(controller);
 */
export function useStore<S>(store: ExternalStore<S>): S {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
