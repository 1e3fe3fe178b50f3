import { type ChatCompletionChunk, InvalidJobError, type JobSpec, type Pool, type PoolStatus, type PoolTimers } from '@inkling/scheduler';
import { encodeError, jobResult } from '@inkling/scheduler/engine';
import { type WireStatus, encodeResult } from './errorCodec.js';
import { type MessageEndpoint, post } from './messageEndpoint.js';
import type { Presence } from './presence.js';
import { type ClientMessage, type HostMessage, type WireSpec, isClientMessage, scoped } from './protocol.js';
import { tabPriority } from './tabPriority.js';

/** What a served client needs from the host that serves it. */
export interface ClientHost {
  readonly pool: Pool;
  readonly timers: PoolTimers;
  readonly now: () => number;
  readonly snapshotIntervalMs: number;
  /** Resolves once the host holds its lock (welcomes wait for it). */
  readonly ready: Promise<{ hostId: string; lock: string | undefined; timeOrigin: number }>;
  /** The snapshot flattened, once per snapshot for all clients. */
  wire(status: PoolStatus): WireStatus;
  /** This client wants the model loaded (`true`) or no longer does. */
  hold(client: ServedClient, holding: boolean): Promise<void>;
  /** This client is gone. */
  drop(client: ServedClient): void;
  /** Starts watching the client's lock; calls back when the tab is gone. */
  watch(lock: string, onGone: () => void): () => void;
}

/**
 * One client (a tab) of a shared host: its jobs, scoped under its id so
 * that ids, sessions and tasks never meet another tab's; its presence, which
 * sets the band of its jobs; its snapshot pushes, at most one per
 * `snapshotIntervalMs` and only when the snapshot changed. `PoolHost.serve`
 * makes one per endpoint.
 *
 * @example
 * const client = host.serve(port);
 * port.addEventListener('close', () => client.close());
 */
export class ServedClient {
  readonly id: string;
  #presence: Presence = { visible: true, focused: true };
  readonly #jobs = new Map<string, AbortController>();
  #pushed: PoolStatus | undefined;
  #lastPushAt = Number.NEGATIVE_INFINITY;
  #timer: unknown;
  #welcomed = false;
  #closed = false;
  #unwatch = () => {};

  constructor(
    readonly host: ClientHost,
    readonly endpoint: MessageEndpoint,
    id: string,
  ) {
    this.id = id;
    endpoint.addEventListener('message', this.#onMessage);
    endpoint.addEventListener('close', this.#onClose);
    endpoint.start?.();
  }

  /** Jobs of this client the host has not answered yet. */
  get liveJobs(): number {
    return this.#jobs.size;
  }

  /** Schedules a snapshot push: now if none went out for a frame, else at the end of it. */
  schedulePush(): void {
    if (!this.#welcomed || this.#closed || this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastPushAt + this.host.snapshotIntervalMs - this.host.now());
    this.#timer = this.host.timers.setTimeout(() => {
      this.#timer = undefined;
      this.#push();
    }, wait);
  }

  /** Ends the client: its jobs are cancelled, its hold on the model released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.endpoint.removeEventListener('message', this.#onMessage);
    this.endpoint.removeEventListener('close', this.#onClose);
    if (this.#timer !== undefined) this.host.timers.clearTimeout(this.#timer);
    this.#unwatch();
    this.endpoint.close?.();
    for (const controller of this.#jobs.values()) controller.abort();
    this.#jobs.clear();
    void this.host.hold(this, false);
    this.host.drop(this);
  }

  /** Pushes the snapshot ahead of a reply, so a tab that awaited `load()` sees the pool ready. */
  #pushNow(): void {
    if (!this.#welcomed) return;
    if (this.#timer !== undefined) this.host.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#push();
  }

  #push(): void {
    const status = this.host.pool.getSnapshot();
    if (status === this.#pushed || this.#closed) return;
    this.#pushed = status;
    this.#lastPushAt = this.host.now();
    this.#send({ t: 'snapshot', status: this.host.wire(status) });
  }

  #send(message: HostMessage): void {
    if (this.#closed) return;
    try {
      post(this.endpoint, message);
    } catch {
      // A port whose other end is gone throws in some browsers: the client is gone.
      this.close();
    }
  }

  readonly #onClose = (): void => this.close();

  readonly #onMessage = (event: { data: unknown }): void => {
    if (this.#closed || !isClientMessage(event.data)) return;
    this.#handle(event.data);
  };

  #handle(message: ClientMessage): void {
    switch (message.t) {
      case 'hello':
        this.#see(message.presence);
        if (message.lock) this.#unwatch = this.host.watch(message.lock, () => this.close());
        void this.host.ready.then(({ hostId, lock, timeOrigin }) => {
          this.#send({ t: 'welcome', clientId: this.id, hostId, lock, timeOrigin });
          this.#welcomed = true;
          this.#push();
        });
        return;
      case 'presence':
        this.#see(message.presence);
        return;
      case 'submit':
        if (typeof message.id === 'string' && typeof message.spec === 'object' && message.spec !== null)
          this.#submit(message.id, message.spec);
        else this.#refuse(message.id, 'A submit message needs an "id" string and a "spec" object; this one had neither, so nothing ran.');
        return;
      case 'abort':
        this.#jobs.get(message.id)?.abort();
        return;
      case 'cancel':
        this.host.pool.cancel(scoped(this.id, message.key));
        return;
      case 'call':
        void this.#call(message.rid, message.op, message.patch);
        return;
      case 'bye':
        this.close();
        return;
    }
  }

  #submit(id: string, wire: WireSpec): void {
    const { stream, ...spec } = wire;
    const controller = new AbortController();
    const scope = (key: unknown) => (typeof key === 'string' && key !== '' ? scoped(this.id, key) : key);
    const job = {
      ...spec,
      id: scoped(this.id, id),
      task: scope(spec.task),
      session: scope(spec.session),
      priority: tabPriority(spec.priority, this.#presence),
      owner: this.id,
      signal: controller.signal,
      ...(stream === true && { onChunk: (chunk: ChatCompletionChunk) => this.#send({ t: 'chunk', id, chunk }) }),
    } as JobSpec;
    this.#jobs.set(id, controller);
    void this.host.pool.submit(job).then((result) => {
      if (this.#jobs.get(id) === controller) this.#jobs.delete(id);
      this.#send({ t: 'result', id, result: encodeResult({ ...result, id }) });
    });
  }

  /** Takes a presence the client reported; anything not shaped like one leaves the last one. */
  #see(presence: unknown): void {
    const p = presence as Presence | null | undefined;
    if (typeof p?.visible === 'boolean' && typeof p.focused === 'boolean') this.#presence = { visible: p.visible, focused: p.focused };
  }

  /** Answers a malformed job with an error result; nothing else is touched. */
  #refuse(id: unknown, message: string): void {
    const now = this.host.now();
    const key = typeof id === 'string' ? id : String(id);
    const result = jobResult({ id: key, status: 'error', submittedAt: now, finishedAt: now, error: new InvalidJobError(message) });
    this.#send({ t: 'result', id: key, result: encodeResult(result) });
  }

  async #call(rid: number, op: 'load' | 'unload' | 'configure', patch?: Record<string, unknown>): Promise<void> {
    try {
      let value: unknown;
      if (op === 'load') {
        await this.host.hold(this, true);
        value = await this.host.pool.load((report) => this.#send({ t: 'progress', rid, report }));
      } else if (op === 'unload') {
        for (const controller of this.#jobs.values()) controller.abort();
        await this.host.hold(this, false);
      } else {
        value = this.host.pool.configure(patch as Record<string, unknown>);
      }
      this.#pushNow();
      this.#send({ t: 'reply', rid, value });
    } catch (error) {
      this.#pushNow();
      this.#send({ t: 'reply', rid, error: encodeError(error) });
    }
  }
}
