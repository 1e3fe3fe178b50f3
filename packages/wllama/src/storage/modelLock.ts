/** The part of `navigator.locks` the store uses. */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { mode?: 'exclusive' | 'shared'; ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

const local = new Map<string, Promise<unknown>>();

/**
 * Runs `work` holding the model's lock: a Web Lock (`navigator.locks`), so
 * one tab of the origin downloads a model while the others wait and then find
 * it stored; where Web Locks are missing, a lock within this page. With
 * `ifAvailable`, `work` gets `false` instead of waiting.
 *
 * @example
 * await withModelLock(navigator.locks, key, { signal }, async () => download());
 */
export async function withModelLock<T>(
  locks: LockManagerLike | undefined,
  key: string,
  options: { signal?: AbortSignal; ifAvailable?: boolean },
  work: (held: boolean) => Promise<T>,
): Promise<T> {
  const name = `inkling-wllama-model:${key}`;
  if (locks) {
    const lockOptions = options.ifAvailable ? { ifAvailable: true } : options.signal ? { signal: options.signal } : {};
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

/** `navigator.locks`, looked up when called. */
export function defaultLocks(): LockManagerLike | undefined {
  return (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
}
