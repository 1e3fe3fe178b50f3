import { ModelInUseError } from './storageErrors.js';

/** The part of `navigator.locks` model storage uses; inject it to test or to wrap it. */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { mode?: 'exclusive' | 'shared'; ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/** Options of `withModelLock`. */
export interface ModelLockOptions {
  /** Stops waiting for the lock (the request rejects with the signal's reason). Default: none. */
  signal?: AbortSignal | undefined;
  /** Do not wait: `work` gets `false` when another holder has it. Default `false`. */
  ifAvailable?: boolean;
  /**
   * `'shared'` holders run together and keep out an exclusive one (a load of a
   * model already stored, which only needs it not deleted); `'exclusive'` runs
   * alone (a download, a delete). Default `'exclusive'`.
   */
  mode?: 'exclusive' | 'shared';
}

const local = new Map<string, Promise<unknown>>();

/**
 * Runs `work` holding the lock `name`: a Web Lock (`navigator.locks`), so one
 * tab of the origin downloads a model while the others wait and then find it
 * stored, and no tab deletes a model another is downloading or loading. Where
 * Web Locks are missing, a lock within this page (shared holders then take
 * turns too). With `ifAvailable`, `work` gets `false` instead of waiting.
 * Engine packages name their locks `inkling-<engine>-model:<model>`.
 *
 * @example
 * await withModelLock(navigator.locks, 'inkling-webllm-model:Qwen2.5-0.5B-Instruct-q4f16_1-MLC', { signal }, async () => download());
 */
export async function withModelLock<T>(
  locks: LockManagerLike | undefined,
  name: string,
  options: ModelLockOptions,
  work: (held: boolean) => Promise<T>,
): Promise<T> {
  if (locks) {
    const mode = options.mode ?? 'exclusive';
    const lockOptions = options.ifAvailable ? { mode, ifAvailable: true } : options.signal ? { mode, signal: options.signal } : { mode };
    return locks.request(name, lockOptions, (lock) => work(lock !== null));
  }
  const before = local.get(name);
  if (before && options.ifAvailable) return work(false);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  local.set(name, mine);
  try {
    await before?.catch(() => {});
    options.signal?.throwIfAborted();
    return await work(true);
  } finally {
    release();
    if (local.get(name) === mine) local.delete(name);
  }
}

/**
 * `navigator.locks`, looked up when called; `undefined` where the browser (or Node) has none.
 *
 * @example
 * const locks = options.locks ?? defaultLocks();
 */
export function defaultLocks(): LockManagerLike | undefined {
  return (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
}

/**
 * Whether some tab of the origin holds a stored model's lock now (it is
 * downloading or loading it), asked without waiting: for `StoredModel.busy`,
 * which the storage words by what it knows of the copy (whole: loading; not
 * yet: downloading).
 *
 * @example
 * const held = await modelLockHeld(defaultLocks(), 'inkling-wllama-model:5f3c…');
 */
export async function modelLockHeld(locks: LockManagerLike | undefined, name: string): Promise<boolean> {
  return !(await withModelLock(locks, name, { ifAvailable: true }, async (held) => held));
}

/**
 * Deletes a stored model unless some tab holds its lock (downloading or
 * loading it): `remove` runs holding the lock, or the call rejects with
 * `ModelInUseError` and nothing is removed. The one delete every engine's
 * `ModelStorage` does.
 *
 * @example
 * await deleteUnlessInUse(defaultLocks(), 'inkling-webllm-model:Qwen2.5-0.5B-Instruct-q4f16_1-MLC', model, () => removeFiles(model));
 */
export async function deleteUnlessInUse(
  locks: LockManagerLike | undefined,
  name: string,
  model: string,
  remove: () => Promise<void>,
): Promise<void> {
  const removed = await withModelLock(locks, name, { ifAvailable: true }, async (held) => {
    if (held) await remove();
    return held;
  });
  if (!removed) throw new ModelInUseError(model);
}

/**
 * Deletes every one of `models` with `remove`; those in use are kept and the
 * rest still go, then the first `ModelInUseError` is thrown (any other error
 * at once): `ModelStorage.deleteAll`.
 *
 * @example
 * await deleteEach(await listModels(), (model) => storage.delete(model));
 */
export async function deleteEach<T>(models: Iterable<T>, remove: (model: T) => Promise<void>): Promise<void> {
  let busy: ModelInUseError | undefined;
  for (const model of models) {
    try {
      await remove(model);
    } catch (error) {
      if (!(error instanceof ModelInUseError)) throw error;
      busy ??= error;
    }
  }
  if (busy) throw busy;
}
