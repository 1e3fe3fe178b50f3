import { type ChatCompletionChunk, InvalidJobError, type JobSpec, type Pool, type PoolStatus, type PoolTimers } from '@inkling/scheduler';
import { CallAnswers, SUPERSEDED, answerCall, jobResult } from '@inkling/scheduler/engine';
import { type ResolvedClientLimits, longKey, overLimits, settingsTooBig } from './clientLimits.js';
import { type PoolView, ownView } from './clientView.js';
import { type WireStatus, encodeResult, encodeStatus } from './errorCodec.js';
import { ClientLimitError } from './errors.js';
import { type MessageEndpoint, post } from './messageEndpoint.js';
import type { Presence } from './presence.js';
import { type ClientMessage, type HostMessage, PROTOCOL, type SubmitInput, type WireSpec, isClientMessage, scoped } from './protocol.js';
import { tabPriority } from './tabPriority.js';

/** What a served client needs from the host that serves it. */
export interface ClientHost {
  readonly pool: Pool;
  readonly timers: PoolTimers;
  readonly now: () => number;
  readonly snapshotIntervalMs: number;
  /** What the host takes from one client, at most. */
  readonly limits: ResolvedClientLimits;
  /** Resolves once the host holds its lock (welcomes wait for it). */
  readonly ready: Promise<{ hostId: string; lock: string | undefined; timeOrigin: number }>;
  /** The whole snapshot flattened, once per snapshot for all clients with the `'all'` view. */
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
 * that ids, sessions and tasks never meet another tab's, each answered as
 * the kit's call under its `rid` (an app's id may come back after a cancel),
 * stopped by the client's `CallCancel`; its
 * presence, which sets the band of its jobs; its snapshot pushes, at most
 * one per `snapshotIntervalMs`, only when the snapshot changed, cut to its
 * `view`. Everything it sends is bounded by the host's `limits`: what is
 * over them is refused to this client with a `ClientLimitError`.
 * `PoolHost.serve` makes one per endpoint.
 *
 * @example
 * const client = host.serve(port);
 * port.addEventListener('close', () => client.close());
 */
export class ServedClient {
  readonly id: string;
  #presence: Presence = { visible: true, focused: true };
  /** Live jobs, by their `submit` call's `rid`. */
  readonly #jobs = new CallAnswers((reply) => this.#send(reply));
  #pushed: PoolStatus | undefined;
  #lastPushAt = Number.NEGATIVE_INFINITY;
  #timer: unknown;
  #welcomed = false;
  #greeted = false;
  #closed = false;
  #unwatch = () => {};

  constructor(
    readonly host: ClientHost,
    readonly endpoint: MessageEndpoint,
    id: string,
    readonly view: PoolView = 'own',
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
    this.#jobs.cancelAll();
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
    const wire = this.view === 'all' ? this.host.wire(status) : encodeStatus(ownView(status, this.id));
    this.#send({ t: 'snapshot', status: wire });
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
        // Once per endpoint: a reconnecting tab opens a new one, so a second hello is noise (or a lock-watch flood).
        if (this.#greeted) return;
        this.#greeted = true;
        // A client of another build would misread this host (and be misread): it alone is refused.
        if (message.protocol !== PROTOCOL) {
          this.#send({ t: 'refused', protocol: PROTOCOL });
          this.close();
          return;
        }
        this.#see(message.presence);
        // A lock name over the limit is not watched: the tab is then known gone by its port alone.
        if (typeof message.lock === 'string' && message.lock !== '' && !longKey('lock', message.lock, this.host.limits)) {
          this.#unwatch = this.host.watch(message.lock, () => this.close());
        }
        void this.host.ready.then(({ hostId, lock, timeOrigin }) => {
          this.#send({ t: 'welcome', protocol: PROTOCOL, clientId: this.id, hostId, lock, timeOrigin });
          this.#welcomed = true;
          this.#push();
        });
        return;
      case 'presence':
        this.#see(message.presence);
        return;
      case 'call':
        if (message.op === 'submit') this.#take(message.rid, message.input);
        else void this.#call(message.rid, message.op, message.input);
        return;
      case 'close':
        this.#jobs.cancel(message.rid, message.reason === 'supersede' ? SUPERSEDED : undefined);
        return;
      case 'bye':
        this.close();
        return;
    }
  }

  /** A `submit` call checked at the door: well formed, a fresh `rid`, within the limits. */
  #take(rid: number, input: unknown): void {
    const { id, spec } = (input ?? {}) as Partial<SubmitInput>;
    if (!Number.isSafeInteger(rid) || typeof id !== 'string' || typeof spec !== 'object' || spec === null) {
      this.#refuse(
        rid,
        id,
        new InvalidJobError(
          'A submit call needs a "rid" number and an input with an "id" string and a "spec" object; this one had not, so nothing ran.',
        ),
      );
    } else if (this.#jobs.has(rid)) {
      this.#refuse(
        rid,
        id,
        new InvalidJobError(`A submit call reused "rid" ${rid} of a live job; each call needs its own, so nothing ran.`),
      );
    } else if (this.#jobs.size >= this.host.limits.maxJobsPerClient) {
      const { maxJobsPerClient } = this.host.limits;
      this.#refuse(
        rid,
        id,
        new ClientLimitError(
          `This client has ${maxJobsPerClient} jobs queued or running, the most this shared pool takes from one (PoolHost "limits.maxJobsPerClient"). Wait for some to finish.`,
        ),
      );
    } else {
      const problem = longKey('id', id, this.host.limits) ?? overLimits(spec as unknown as Record<string, unknown>, this.host.limits);
      if (problem) this.#refuse(rid, id, new ClientLimitError(problem));
      else this.#submit(rid, id, spec);
    }
  }

  #submit(rid: number, id: string, wire: WireSpec): void {
    const { stream, ...spec } = wire;
    const scope = (key: unknown) => (typeof key === 'string' && key !== '' ? scoped(this.id, key) : key);
    void this.#jobs.answer(rid, (signal) =>
      this.host.pool
        .submit({
          ...spec,
          id: scoped(this.id, id),
          task: scope(spec.task),
          session: scope(spec.session),
          priority: tabPriority(spec.priority, this.#presence),
          owner: this.id,
          signal,
          ...(stream === true && { onChunk: (chunk: ChatCompletionChunk) => this.#send({ t: 'progress', rid, report: chunk }) }),
        } as JobSpec)
        .then((result) => encodeResult({ ...result, id })),
    );
  }

  /** Takes a presence the client reported; anything not shaped like one leaves the last one. */
  #see(presence: unknown): void {
    const p = presence as Presence | null | undefined;
    if (typeof p?.visible === 'boolean' && typeof p.focused === 'boolean') this.#presence = { visible: p.visible, focused: p.focused };
  }

  /** Answers a job it will not run with an error result; nothing else is touched. */
  #refuse(rid: unknown, id: unknown, error: InvalidJobError): void {
    const now = this.host.now();
    // The app's id goes back only when it is short: a refusal never echoes what was too big.
    const key = typeof id === 'string' && id.length <= this.host.limits.maxKeyLength ? id : '';
    const result = jobResult({ id: key, status: 'error', submittedAt: now, finishedAt: now, error });
    this.#send({ t: 'reply', rid: Number.isSafeInteger(rid) ? (rid as number) : -1, value: encodeResult(result) });
  }

  /**
   * Answers a call other than a job (`load`, `unload`, `configure`, `cancel`);
   * the snapshot goes ahead of the reply, so a tab that awaited `load()` sees the pool ready.
   */
  #call(rid: number, op: string, input: unknown): Promise<void> {
    return answerCall(
      rid,
      async () => {
        if (op === 'load') {
          await this.host.hold(this, true);
          return this.host.pool.load((report) => this.#send({ t: 'progress', rid, report }));
        }
        if (op === 'unload') {
          this.#jobs.cancelAll();
          return this.host.hold(this, false);
        }
        if (op === 'cancel') {
          return typeof input === 'string' && !longKey('key', input, this.host.limits) ? this.host.pool.cancel(scoped(this.id, input)) : 0;
        }
        const problem = settingsTooBig(input, this.host.limits);
        if (problem) throw new ClientLimitError(problem);
        return this.host.pool.configure(input as Record<string, unknown>);
      },
      (reply) => {
        this.#pushNow();
        this.#send(reply);
      },
    );
  }
}
