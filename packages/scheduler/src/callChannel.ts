import { InklingError, type ErrorKind } from './errors.js';
import { guard } from './reportError.js';
import { type WireError, decodeError } from './wireError.js';

/**
 * A request across a worker's or a port's messages: `rid` numbers it on its
 * connection, `op` names it, `input` is what it needs (`undefined`, or absent
 * after JSON, when nothing).
 */
export interface CallMessage<Op extends string = string> {
  readonly t: 'call';
  readonly rid: number;
  readonly op: Op;
  readonly input?: unknown;
}

/** The answer to call `rid`: its value, or its error (then `value` is absent). */
export interface CallReply {
  readonly t: 'reply';
  readonly rid: number;
  readonly value?: unknown;
  readonly error?: WireError;
}

/** A report on call `rid` before its answer (a load's progress). */
export interface CallProgress {
  readonly t: 'progress';
  readonly rid: number;
  readonly report: unknown;
}

/** What the answering side sends back for a call. */
export type CallAnswer = CallReply | CallProgress;

/**
 * The asking side gave up call `rid` (`CallChannel.cancel`): the answering
 * side stops it (`CallAnswers.cancel`) and its reply, if one still comes,
 * finds nothing. `t` is `'close'`, the word the WebLLM worker has read since
 * `inkling-webllm/4` for a stream its page left; `reason` says why, where
 * the protocol names reasons.
 */
export interface CallCancel {
  readonly t: 'close';
  readonly rid: number;
  readonly reason?: string | undefined;
}

/**
 * The channel was closed (its `close()` ran) while the call waited, or the
 * call was made on a closed channel: nothing will answer it.
 *
 * @example
 * pool.close(); // a pending pool.load() rejects with CallCancelledError (kind 'cancelled')
 */
export class CallCancelledError extends InklingError {
  override name = 'CallCancelledError';
  override readonly kind: ErrorKind = 'cancelled';
}

function isRecord(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null;
}

/**
 * Whether `data` is a call (`{ t: 'call', rid, op }`); what else arrives on the port fails it.
 *
 * @example
 * if (isCallMessage(event.data)) void answerCall(event.data.rid, () => run(event.data), post);
 */
export function isCallMessage(data: unknown): data is CallMessage {
  return isRecord(data) && data.t === 'call' && Number.isSafeInteger(data.rid) && typeof data.op === 'string';
}

/**
 * Whether `data` answers a call: a `reply` or a `progress` with a numeric `rid`.
 *
 * @example
 * if (isCallAnswer(event.data)) channel.receive(event.data);
 */
export function isCallAnswer(data: unknown): data is CallAnswer {
  return isRecord(data) && (data.t === 'reply' || data.t === 'progress') && typeof data.rid === 'number';
}

/**
 * Whether `data` cancels a call (`{ t: 'close', rid }`).
 *
 * @example
 * if (isCallCancel(event.data)) answers.cancel(event.data.rid);
 */
export function isCallCancel(data: unknown): data is CallCancel {
  return isRecord(data) && data.t === 'close' && typeof data.rid === 'number';
}

/** One call waiting for its reply. */
export interface PendingCall<Op extends string = string> {
  readonly rid: number;
  readonly op: Op;
  readonly input: unknown;
}

/** Options of one `CallChannel` call. */
export interface CallOptions {
  /** Gets the call's reports before its answer; what it throws is reported, not raised. */
  onProgress?: ((report: unknown) => void) | undefined;
}

interface Waiting<Op extends string> extends PendingCall<Op>, CallOptions {
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * The asking side of a request/answer protocol over messages: numbers each
 * call, keeps it until its `reply`, hands `progress` to it, and rejects every
 * call still waiting when the other side is gone (`rejectAll`, or `close` for
 * good, after which a call rejects at once). The other side answers with
 * `answerCall`. Streams ride on it too: a stream is a call whose reply is its
 * end, its chunks handed to `receive` as `progress` from their own messages.
 *
 * @example
 * const channel = new CallChannel((message) => worker.postMessage(message), { decode: (wire) => decodeError(wire, classes) });
 * worker.onmessage = ({ data }) => { if (isCallAnswer(data)) channel.receive(data); };
 * const engines = await channel.call('load', { model }, { onProgress: show });
 */
export class CallChannel<Op extends string = string> {
  readonly #send: (message: CallMessage<Op> | CallCancel) => void;
  readonly #decode: (wire: WireError) => unknown;
  readonly #calls = new Map<number, Waiting<Op>>();
  #nextRid = 0;
  #closed: { reason: unknown } | undefined;

  /**
   * `send` posts a call to the other side; `decode` rebuilds a reply's error
   * (default: `decodeError` with the scheduler's classes).
   */
  constructor(send: (message: CallMessage<Op> | CallCancel) => void, options: { decode?: (wire: WireError) => unknown } = {}) {
    this.#send = send;
    this.#decode = options.decode ?? decodeError;
  }

  /** How many calls wait for their reply. */
  get size(): number {
    return this.#calls.size;
  }

  /** Why the channel was closed, once it was. */
  get closed(): { reason: unknown } | undefined {
    return this.#closed;
  }

  /** Sends a call; settles with its reply. See `open` for the call's number. */
  call(op: Op, input?: unknown, options?: CallOptions): Promise<unknown> {
    return this.open(op, input, options).answer;
  }

  /** Sends a call and returns its number with the promise of its reply (rejected at once on a closed channel). */
  open(op: Op, input?: unknown, { onProgress }: CallOptions = {}): { rid: number; answer: Promise<unknown> } {
    const rid = ++this.#nextRid;
    const closed = this.#closed;
    const answer = new Promise<unknown>((resolve, reject) => {
      if (closed) reject(closed.reason);
      else this.#calls.set(rid, { rid, op, input, onProgress, resolve, reject });
    });
    if (!closed) this.#send({ t: 'call', rid, op, input });
    return { rid, answer };
  }

  /**
   * Takes a reply (settling its call) or a progress report (handed to the
   * call's `onProgress`; what that throws is reported, not raised); false
   * when no call waits under its `rid`.
   */
  receive(answer: CallAnswer): boolean {
    const call = this.#calls.get(answer.rid);
    if (!call) return false;
    if (answer.t === 'progress') {
      guard(() => call.onProgress?.(answer.report));
    } else {
      this.#calls.delete(answer.rid);
      if (answer.error === undefined) call.resolve(answer.value);
      else call.reject(this.#decode(answer.error));
    }
    return true;
  }

  /** The calls waiting, oldest first. */
  pending(): PendingCall<Op>[] {
    return [...this.#calls.values()];
  }

  /**
   * Sends every waiting call again (those `only` picks, when given), under
   * its own number: for a new connection to the other side.
   */
  resend(only?: (call: PendingCall<Op>) => boolean): void {
    for (const call of this.#calls.values())
      if (!only || only(call)) this.#send({ t: 'call', rid: call.rid, op: call.op, input: call.input });
  }

  /** Ends call `rid` here with `value` (no reply will come); false when it was not waiting. */
  settle(rid: number, value: unknown): boolean {
    // Its handlers run later, once it has left the map.
    this.#calls.get(rid)?.resolve(value);
    return this.#calls.delete(rid);
  }

  /**
   * Gives up call `rid`: drops it unanswered (its promise stays pending) and
   * tells the other side to stop it (`CallCancel`, with `reason` when
   * given); a stream its reader left, a job its caller aborted. Nothing is
   * sent when it was not waiting (answered, or cancelled already).
   */
  cancel(rid: number, reason?: string): void {
    if (this.#calls.delete(rid)) this.#send({ t: 'close', rid, reason });
  }

  /** Rejects every waiting call with `reason`; the channel stays open for new calls. */
  rejectAll(reason: unknown): void {
    // A promise's handlers run later, never inside reject(): nothing joins or leaves the map meanwhile.
    for (const call of this.#calls.values()) call.reject(reason);
    this.#calls.clear();
  }

  /**
   * Closes the channel for good: every waiting call and every later one
   * rejects with `reason` (default: a `CallCancelledError`). Only the first
   * close counts.
   */
  close(reason: unknown = new CallCancelledError('The call was cancelled: its channel was closed before the answer came.')): void {
    if (this.#closed) return;
    this.#closed = { reason };
    this.rejectAll(reason);
  }
}
