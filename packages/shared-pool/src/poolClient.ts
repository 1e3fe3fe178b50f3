import {
  type ChatCompletionChunk,
  type InklingError,
  type JobResult,
  type JobSpec,
  type Pool,
  type PoolLoadProgress,
  Subscribable,
} from '@inkling/scheduler';
import { CallChannel, type ErrorClasses, abortReasonOf, chunkText, isAbortSignal } from '@inkling/scheduler/engine';
import { type WireResult, decodeError, decodeResult, decodeStatus } from './errorCodec.js';
import { HostLostError, HostUnavailableError, PoolVersionError } from './errors.js';
import { emptyStatus, localView, shiftTimes } from './localView.js';
import { HostLink } from './hostLink.js';
import { platformLocks } from './messageEndpoint.js';
import { type PoolClientOptions, checkOptions, refuseOption, seeking } from './poolClientOptions.js';
import { type Presence, type PresenceSource, documentPresence } from './presence.js';
import type { CallOp, ClientMessage, HostMessage, SubmitInput } from './protocol.js';
import { type RemoteJob, abortedAtOnce, localResult, refused, wireSpec } from './remoteJob.js';
import type { SharedPoolStatus } from './clientView.js';

export type { PoolClientOptions } from './poolClientOptions.js';

/**
 * A `Pool` whose engines live elsewhere (a SharedWorker, another tab, an
 * offscreen document), reached over a `MessageEndpoint` served by `PoolHost`.
 * Hand it to `<PoolProvider pool>` like an `EnginePool`. Each job is a call
 * on the kit's `CallChannel` (its chunks the call's progress, its result the
 * reply, an `AbortSignal`'s abort the call's cancel), errors keep their classes,
 * and the snapshot arrives at most once a frame: this tab's jobs in full and
 * the other tabs' as counts per band (`SharedPoolStatus.others`), or every
 * tab's jobs (`owner` says whose) where the host gives this tab the full
 * view. `cancel` resolves this tab's matching jobs at once and
 * returns their number. When the host is lost, running jobs that streamed
 * something end with a `HostLostError` (`retryable: true`, their text
 * kept); the rest are resubmitted to the new host, reached through `connect`.
 *
 * @example
 * const pool = new PoolClient({ connect: () => new SharedWorker(url, { type: 'module' }).port });
 * const { text } = await pool.submit({ params: { messages: [{ role: 'user', content: 'Hi' }] } });
 */
export class PoolClient extends Subscribable implements Pool {
  readonly #classes: ErrorClasses;
  readonly #presenceSource: PresenceSource;
  readonly #now: () => number;
  /** Live jobs by the app's id (unique among live ones); each waits in `#calls` under its `rid`. */
  readonly #jobs = new Map<string, RemoteJob>();
  /** Jobs and settings calls waiting for the host's reply. */
  readonly #calls: CallChannel<CallOp>;
  readonly #link: HostLink;
  #snapshot: SharedPoolStatus = emptyStatus('idle');
  #presence: Presence | undefined;
  #unpresence: (() => void) | undefined;
  #holding = false;
  #config: Record<string, unknown> | undefined;
  #nextJob = 0;
  #losses = 0;
  #closed = false;

  constructor(options: PoolClientOptions) {
    super();
    const reconnect = checkOptions(options);
    this.#classes = options.errorClasses ?? {};
    this.#calls = new CallChannel<CallOp>((message) => this.#post(message), { decode: (wire) => decodeError(wire, this.#classes) });
    this.#presenceSource = options.presence ?? documentPresence();
    this.#now = options.now ?? (() => performance.now());
    this.#link = new HostLink(
      options.connect,
      options.locks === undefined ? platformLocks() : options.locks,
      options.timeOrigin ?? performance.timeOrigin,
      {
        replay: () => this.#replay(),
        presence: () => (this.#presence = this.#presenceSource.get()),
        message: (message) => this.#receive(message),
        lost: () => this.#lost(),
        failed: (error) => this.#failed(error),
        missed: () => {
          if (this.#busy()) this.#ensure();
        },
      },
      seeking(reconnect, options.timers, this.#now),
    );
  }

  /** The id the host gave this client (`JobInfo.owner` of its jobs); undefined until it answered. */
  get clientId(): string | undefined {
    return this.#link.clientId;
  }

  /** How many times the host was lost (and a new one sought). */
  get hostLosses(): number {
    return this.#losses;
  }

  /** The first listener connects to the host (if nothing has yet), to hear its snapshots. */
  protected override onSubscribe(): void {
    this.#ensure();
  }

  /** The host's last snapshot as this tab sees it (see `SharedPoolStatus`); the same object until a new one arrives. Bound. */
  readonly getSnapshot = (): SharedPoolStatus => this.#snapshot;

  /**
   * Sends a job to the host; resolves with its result, never rejects. See
   * `EnginePool.submit`; the tab's presence sets its band (`tabPriority`).
   *
   * @example
   * const result = await pool.submit({ session: 'editor', priority: 'interactive', params, onChunk });
   */
  submit(spec: JobSpec): Promise<JobResult> {
    const now = this.#now();
    const given = typeof spec === 'object' && spec !== null ? spec : undefined;
    const id = typeof given?.id === 'string' && given.id !== '' ? given.id : `job-${++this.#nextJob}`;
    if (!given)
      return refused(
        id,
        now,
        `submit() takes a job spec object such as { params: { messages: [...] } }; it got ${spec === null ? 'null' : typeof spec}.`,
      );
    if (this.#jobs.has(id)) {
      return refused(
        id,
        now,
        `A job with id "${id}" is already queued or running. Give each job its own id, or leave "id" out to get a generated one.`,
      );
    }
    const wire = wireSpec(given, id);
    if (typeof wire === 'string') return refused(id, now, wire);
    const { signal, onChunk } = given;
    if (isAbortSignal(signal) && signal.aborted) return Promise.resolve(abortedAtOnce(id, now, abortReasonOf(signal)));
    return new Promise<JobResult>((resolve) => {
      this.#ensure(); // first: a new connection resends the calls waiting, this one not yet among them
      const { rid, answer } = this.#calls.open('submit', { id, spec: wire } satisfies SubmitInput, {
        onProgress: (chunk) => {
          job.text += chunkText(chunk as ChatCompletionChunk);
          job.chunks += 1;
          job.onChunk?.(chunk as ChatCompletionChunk);
        },
      });
      const job: RemoteJob = {
        rid,
        id,
        session: typeof given.session === 'string' ? given.session : undefined,
        onChunk: typeof onChunk === 'function' ? (onChunk as (chunk: ChatCompletionChunk) => void) : undefined,
        submittedAt: now,
        text: '',
        chunks: 0,
        resolve,
      };
      this.#jobs.set(id, job);
      answer.then(
        (value) => {
          if (!value) return; // it ended here first (see #finish)
          const result = decodeResult(value as WireResult, this.#classes);
          this.#finish(job, { ...result, id, ...shiftTimes(result, this.#link.clockOffset) });
        },
        (error: InklingError) => this.#finish(job, { error }),
      );
      if (isAbortSignal(signal)) {
        const onAbort = () => {
          const cancelReason = abortReasonOf(signal);
          this.#calls.cancel(rid, cancelReason === 'supersede' ? cancelReason : undefined);
          this.#finish(job, { cancelReason });
        };
        signal.addEventListener('abort', onAbort, { once: true });
        job.detach = () => signal.removeEventListener('abort', onAbort);
      }
    });
  }

  /**
   * Cancels this tab's live jobs with that id or session; each resolves at
   * once (`status: 'cancelled'`, text so far). Returns how many it matched.
   * Other tabs' jobs are out of reach.
   *
   * @example
   * pool.cancel('notes-editor');
   */
  cancel(idOrSession: string | null | undefined): number {
    if (typeof idOrSession !== 'string' || idOrSession === '') return 0;
    let matched = 0;
    for (const job of [...this.#jobs.values()]) {
      if (job.id !== idOrSession && job.session !== idOrSession) continue;
      if (this.#finish(job, { cancelReason: 'cancel' })) matched += 1;
    }
    if (matched > 0) this.#call('cancel', idOrSession).catch(() => {});
    return matched;
  }

  /**
   * Asks the host for the model: this tab holds it until `unload()` or until
   * the tab goes. Resolves with the host pool's engine count; rejects as
   * `EnginePool.load` does (the error rebuilt with its class).
   *
   * @example
   * await pool.load((report) => console.log(report.text));
   */
  load(onProgress?: (report: PoolLoadProgress) => void): Promise<number> {
    // Held only once the call is recorded: a connection opened by this call replays a held
    // model with a load of its own, which would take the progress reports meant for this one.
    const loading = this.#call('load', undefined, onProgress) as Promise<number>;
    this.#holding = true;
    return loading;
  }

  /**
   * Lets go of the model: this tab's jobs resolve at once (`cancelReason:
   * 'unload'`); the host unloads once no tab holds it.
   *
   * @example
   * await pool.unload();
   */
  async unload(): Promise<void> {
    this.#holding = false;
    for (const job of [...this.#jobs.values()]) this.#finish(job, { cancelReason: 'unload' });
    if (this.#link.connected) await this.#call('unload');
  }

  /**
   * Sends a runtime setting to the host's engines (and to engines built
   * later, and to the next host). Returns the engine count of the last
   * snapshot: the host's answer comes later.
   *
   * @example
   * pool.configure({ decodeSteps: 4 });
   */
  configure(patch: Record<string, unknown>): number {
    if (typeof patch !== 'object' || patch === null)
      refuseOption('configure()', 'given an object of settings, e.g. { decodeSteps: 4 }', patch);
    this.#ensure();
    this.#config = { ...this.#config, ...patch };
    this.#call('configure', patch).catch(() => {});
    return this.#snapshot.size;
  }

  /**
   * Leaves the host for good: this tab's jobs resolve cancelled and its hold
   * on the model goes. The client cannot be used again.
   *
   * @example
   * window.addEventListener('pagehide', () => pool.close());
   */
  close(): void {
    if (this.#closed) return;
    for (const job of [...this.#jobs.values()]) this.#finish(job, { cancelReason: 'cancel' });
    this.#post({ t: 'bye' });
    this.#closed = true;
    // Nothing will answer now: a pending load() (and any later call) rejects with a CallCancelledError.
    this.#calls.close();
    this.#link.close();
    this.#unpresence?.();
  }

  // ----------------------------------------------------------------- internals

  #call(op: CallOp, input?: unknown, onProgress?: (report: PoolLoadProgress) => void): Promise<unknown> {
    this.#ensure(); // before the call is recorded: a new connection replays recorded ones
    return this.#calls.call(op, input, onProgress && { onProgress: onProgress as (report: unknown) => void });
  }

  /**
   * Resolves a job with the host's result, or here (cancel, abort, host lost:
   * its call is settled here, a late reply finds nothing); false when it had already ended.
   */
  #finish(job: RemoteJob, ending: JobResult | Parameters<typeof localResult>[2]): boolean {
    if (this.#jobs.get(job.id) !== job) return false;
    this.#jobs.delete(job.id);
    this.#calls.settle(job.rid, undefined);
    job.detach?.();
    job.resolve('status' in ending ? ending : localResult(job, this.#now(), ending));
    return true;
  }

  #post(message: ClientMessage): void {
    if (!this.#closed) this.#link.send(message);
  }

  #ensure(): void {
    if (this.#closed) return;
    this.#unpresence ??= this.#presenceSource.subscribe(() => this.#presenceChanged());
    this.#link.ensure();
  }

  /** What a new host must hear first: the model held, settings, then the jobs it never started. */
  #replay(): void {
    this.#calls.resend((call) => call.op !== 'submit');
    if (this.#holding && !this.#calls.pending().some((call) => call.op === 'load')) {
      this.#call('load').catch(() => {});
    }
    if (this.#config) this.#call('configure', this.#config).catch(() => {});
    this.#calls.resend((call) => call.op === 'submit');
  }

  #receive(message: Exclude<HostMessage, { t: 'welcome' | 'refused' }>): void {
    if (message.t !== 'snapshot') this.#calls.receive(message);
    else this.#show(localView(decodeStatus(message.status, this.#classes), this.#link.clientId ?? '', this.#link.clockOffset));
  }

  #show(status: SharedPoolStatus): void {
    this.#snapshot = status;
    this.emit();
  }

  #presenceChanged(): void {
    const next = this.#presenceSource.get();
    const last = this.#presence;
    if (last && last.visible === next.visible && last.focused === next.focused) return;
    this.#presence = next;
    // Before the endpoint opens, the hello carries the presence of that moment.
    if (this.#link.open) this.#post({ t: 'presence', presence: next });
  }

  /**
   * The host died. Jobs that streamed something end with a `HostLostError`
   * and their text; the others, the model hold and the settings go to the
   * next host, sought at once.
   */
  #lost(): void {
    this.#losses += 1;
    const error = new HostLostError(
      "The shared pool's host went away (its worker or tab was closed, or it crashed) while this job ran. Its text so far is kept; send it again: a new host is starting.",
    );
    for (const job of [...this.#jobs.values()]) if (job.chunks > 0) this.#finish(job, { error });
    // Jobs that streamed nothing wait on, to go to the next host; settings calls (but a load) end here.
    for (const call of this.#calls.pending()) {
      if (call.op !== 'load' && call.op !== 'submit') this.#calls.settle(call.rid, call.op === 'configure' ? 0 : undefined);
    }
    this.#show(emptyStatus(this.#holding ? 'loading' : 'idle'));
    if (this.#busy()) this.#ensure();
  }

  /** Whether anything here needs a host: a held model, jobs, calls, listeners. */
  #busy(): boolean {
    // Every live job waits in #calls.
    return !this.#closed && (this.#holding || this.#calls.size > 0 || this.hasListeners());
  }

  /** No host could be reached: everything waiting ends with the reason; the next call tries again. */
  #failed(cause: unknown): void {
    const error =
      cause instanceof HostUnavailableError || cause instanceof PoolVersionError
        ? cause
        : new HostLostError(`The shared pool's host could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`, {
            cause,
          });
    for (const job of [...this.#jobs.values()]) this.#finish(job, { error });
    this.#calls.rejectAll(error);
    this.#show({ ...emptyStatus('error'), error });
  }
}
