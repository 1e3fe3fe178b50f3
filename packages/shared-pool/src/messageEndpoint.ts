/**
 * Anything that carries messages both ways like a `MessagePort`: a
 * SharedWorker's port, one end of a `MessageChannel`, an addressed view of a
 * `BroadcastChannel`, or an adapter over an extension's `runtime.Port`.
 * Messages are structured-cloned (or JSON for a runtime port: the protocol
 * sends plain data only).
 *
 * @example
 * const { port1, port2 } = new MessageChannel();
 * servePool(pool, port1);
 * const client = new PoolClient({ connect: () => port2 });
 */
export interface MessageEndpoint {
  postMessage(message: unknown): void;
  /**
   * `message` carries the other side's messages. `close`, where the endpoint
   * can tell, says the other side is gone (Node's MessagePort fires it; an
   * adapter over an extension's `runtime.Port` fires it on `onDisconnect`); it
   * is how a side without Web Locks learns of the other's death.
   */
  addEventListener(type: 'message' | 'close', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message' | 'close', listener: (event: { data: unknown }) => void): void;
  /** Called once listening starts, where the endpoint needs it (`MessagePort.start`). */
  start?(): void;
  /** Called when the side that owns it is done with it. */
  close?(): void;
}

/**
 * Posts `message` on a port or channel. The one place that calls
 * `postMessage`: ports and channels take no target origin (that argument is
 * `window.postMessage`'s, which the protocol never uses).
 */
export function post(target: { postMessage(message: unknown): void }, message: unknown): void {
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a MessagePort or BroadcastChannel, not a window
  target.postMessage(message);
}

/** The part of `navigator.locks` (Web Locks) the shared pool uses: exclusive locks, `signal`. */
export interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<T> | T): Promise<T>;
}

/** `navigator.locks` where the platform has it. Looked up when called, never at import. */
export function platformLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? null;
}

/**
 * Takes lock `name` and keeps it until `release()` (or until this agent dies:
 * a closed tab, a terminated worker). `held` resolves once it is taken.
 */
export function holdLock(locks: LockManagerLike, name: string): { held: Promise<void>; release: () => void } {
  const taken = deferred();
  const until = deferred();
  const held = taken.promise;
  const release = () => until.resolve();
  locks
    .request(name, {}, () => {
      taken.resolve();
      return until.promise;
    })
    .catch(() => {});
  return { held, release };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = noop;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function noop(): void {}

/**
 * Calls `onGone` once lock `name` is free: its holder released it or died.
 * Returns the function that stops watching.
 */
export function watchLock(locks: LockManagerLike, name: string, onGone: () => void): () => void {
  const stop = new AbortController();
  locks
    .request(name, { signal: stop.signal }, () => {
      if (!stop.signal.aborted) onGone();
    })
    .catch(() => {});
  return () => stop.abort();
}

/** A random id for locks and channel addresses. */
export function randomId(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
