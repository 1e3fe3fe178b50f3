import { type WireError, encodeError } from './wireError.js';
import type { CallReply } from './callChannel.js';

// The answering side of the kit's request/answer channel (`callChannel.ts` is the asking side).

/**
 * Runs call `rid` on the answering side and sends its reply: the value, or
 * the error on the wire (`encode`, by default `encodeError`; give it a
 * function that types the error first). `run` may throw at once: that is
 * answered too. Settles once the reply is sent; never rejects.
 *
 * @example
 * port.onmessage = ({ data }) => {
 *   if (isCallMessage(data)) void answerCall(data.rid, () => engine.load(data.input), (reply) => port.postMessage(reply));
 * };
 */
export async function answerCall(
  rid: number,
  run: () => unknown,
  send: (reply: CallReply) => void,
  encode: (reason: unknown) => WireError = encodeError,
): Promise<void> {
  let reply: CallReply;
  try {
    reply = { t: 'reply', rid, value: await run() };
  } catch (reason) {
    reply = { t: 'reply', rid, error: encode(reason) };
  }
  send(reply);
}

/**
 * The answering side's calls that the asker may cancel: each runs with an
 * `AbortSignal` of its own, which `cancel(rid)` (on the asker's
 * `CallCancel`) or `cancelAll` aborts; its reply is still sent (the asker
 * drops it). A call leaves once its reply is sent.
 *
 * @example
 * const answers = new CallAnswers((reply) => port.postMessage(reply));
 * port.onmessage = ({ data }) => {
 *   if (isCallMessage(data)) void answers.answer(data.rid, (signal) => run(data.input, signal));
 *   else if (isCallCancel(data)) answers.cancel(data.rid);
 * };
 */
export class CallAnswers {
  readonly #live = new Map<number, AbortController>();

  /** `send` posts a reply; `encode` puts an error on the wire (default `encodeError`). */
  constructor(
    readonly send: (reply: CallReply) => void,
    readonly encode: (reason: unknown) => WireError = encodeError,
  ) {}

  /** How many calls run. */
  get size(): number {
    return this.#live.size;
  }

  /** Whether call `rid` runs. */
  has(rid: number): boolean {
    return this.#live.has(rid);
  }

  /** Runs call `rid` with its own signal and sends its reply (see `answerCall`); never rejects. */
  answer(rid: number, run: (signal: AbortSignal) => unknown): Promise<void> {
    const controller = new AbortController();
    this.#live.set(rid, controller);
    return answerCall(
      rid,
      () => run(controller.signal),
      (reply) => {
        if (this.#live.get(rid) === controller) this.#live.delete(rid);
        this.send(reply);
      },
      this.encode,
    );
  }

  /** Aborts call `rid`'s signal with `reason`; false when no such call runs. */
  cancel(rid: number, reason?: unknown): boolean {
    this.#live.get(rid)?.abort(reason);
    return this.#live.has(rid);
  }

  /** Aborts every running call. */
  cancelAll(reason?: unknown): void {
    for (const controller of [...this.#live.values()]) controller.abort(reason);
  }
}
