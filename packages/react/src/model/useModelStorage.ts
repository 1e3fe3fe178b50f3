import type { ModelStorage } from '@inkling/scheduler';
import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { ModelStorageController, type ModelStorageSnapshot } from './core/modelStorageController.js';
import { InklingContext } from '../base/poolContext.js';

/** What `useModelStorage` returns: the snapshot and the actions. */
export interface UseModelStorageResult extends ModelStorageSnapshot {
  /** Reads the storage again. */
  refresh(): Promise<void>;
  /** Deletes one stored model (`'*'`: every one); resolves `false` when it failed (`error` says why). */
  remove(model: string): Promise<boolean>;
  /** Asks the browser to keep the models under storage pressure; resolves with whether it is granted. */
  persist(): Promise<boolean>;
}

/**
 * The models an engine package has stored (`wllamaModelStorage()`,
 * `webllmModelStorage()`, or any `ModelStorage`), with the origin's storage
 * figures and persistence, read when the component mounts, after each
 * action, every second while a tab downloads or loads a model, and when
 * the load of the enclosing `<PoolProvider>`'s pool ends (a download that
 * just finished, or failed, is listed at once). Needs no `<PoolProvider>`.
 * Pass a storage made once (module scope or `useMemo`): a new one is read
 * again.
 *
 * @example
 * const storage = wllamaModelStorage(); // at module scope
 * function Models() {
 *   const { models, room, remove } = useModelStorage(storage);
 *   return <ul>{models.map((m) => <li key={m.model}>{m.model} <button onClick={() => remove(m.model)}>Delete</button></li>)}</ul>;
 * }
 */
export function useModelStorage(storage: ModelStorage): UseModelStorageResult {
  const [bound, setBound] = useState(() => ({ storage, controller: new ModelStorageController(storage) }));
  let current = bound;
  if (bound.storage !== storage) {
    current = { storage, controller: new ModelStorageController(storage) };
    setBound(current);
  }
  const { controller } = current;
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  const pool = useContext(InklingContext)?.pool;
  useEffect(() => {
    if (!pool) return;
    let loading = pool.getSnapshot().phase === 'loading';
    return pool.subscribe(() => {
      const now = pool.getSnapshot().phase === 'loading';
      if (loading && !now) void controller.refresh();
      loading = now;
    });
  }, [pool, controller]);
  return { ...state, refresh: controller.refresh, remove: controller.remove, persist: controller.persist };
}
