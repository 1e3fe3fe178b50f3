import { type JobSpec } from '@inkling/scheduler';
import { type CallCancel, type CallMessage, type CallProgress, type CallReply, messageMatcher } from '@inkling/scheduler/engine';
import type { WireStatus } from './errorCodec.js';
import type { Presence } from './presence.js';

/**
 * The name and version of the messages between a client and its host, said
 * in the client's `hello` and the host's `welcome`. A host refuses a client
 * of another version (`refused`), and a client ends with a `PoolVersionError`
 * when the host speaks another (or, built before versions, none): builds that
 * differ would misread each other (`/2`: a settings call carries `input`, was
 * `patch`; `/3`: a job is a `submit` call, its chunks the call's progress,
 * its result the reply, an abort the kit's `CallCancel`, `t: 'close'`). Raise it with any
 * change either side would misread.
 */
export const PROTOCOL = 'inkling-pool/3';

/**
 * A job spec as it crosses: no `signal` (an abort becomes a `cancel` of its
 * call), no `onChunk` (`stream` asks for its chunks as the call's progress
 * instead), no `owner` (the host sets it to the client's id).
 */
export type WireSpec = Omit<JobSpec, 'signal' | 'onChunk' | 'owner'> & { readonly stream: boolean };

/**
 * What a client asks of the host, each a kit call (`CallMessage`) answered
 * by a `reply` (`CallReply`), the same one `Pool` method each:
 * - `submit`: `input` is a `SubmitInput`; the job's chunks come as its
 *   `progress` (`CallProgress`, when `spec.stream`), its result (a
 *   `WireResult`, refusals too) as the reply's `value`; the client stops it
 *   with the kit's `CallCancel` (`reason: 'supersede'` when superseded). The
 *   call's `rid`, never reused on one connection, names the job on the wire:
 *   the app's `id` may come back after a `cancel()`, and an answer to the job
 *   it named before must never reach the new one.
 * - `cancel`: `input` is the id or session to cancel.
 * - `load` (its progress as `progress` before the reply), `unload`,
 *   `configure` (`input` is the patch).
 */
export type CallOp = 'submit' | 'cancel' | 'load' | 'unload' | 'configure';

/** What a `submit` call carries: the app's id and the spec. */
export interface SubmitInput {
  readonly id: string;
  readonly spec: WireSpec;
}

/** What a client (a tab) sends to the host. */
export type ClientMessage =
  | { readonly t: 'hello'; readonly protocol: string; readonly presence: Presence; readonly lock: string | undefined }
  | { readonly t: 'presence'; readonly presence: Presence }
  | CallMessage<CallOp>
  | CallCancel
  | { readonly t: 'bye' };

/** What the host sends to one client. */
export type HostMessage =
  | {
      readonly t: 'welcome';
      readonly protocol: string;
      readonly clientId: string;
      readonly hostId: string;
      readonly lock: string | undefined;
      /** The host's `performance.timeOrigin`: its job times count from it. */
      readonly timeOrigin: number;
    }
  /** The answer to a `hello` of another `PROTOCOL`: this host will not serve it, and closes. */
  | { readonly t: 'refused'; readonly protocol: string }
  | { readonly t: 'snapshot'; readonly status: WireStatus }
  | CallProgress
  | CallReply;

/** True for a message a client sends; anything else on the endpoint is ignored. */
// Pure: a client bundle that never reads it drops it (and a host bundle `isHostMessage`).
export const isClientMessage = /* @__PURE__ */ messageMatcher<ClientMessage>('t', ['hello', 'presence', 'call', 'close', 'bye']);

/** True for a message the host sends; anything else on the endpoint is ignored. */
export const isHostMessage = /* @__PURE__ */ messageMatcher<HostMessage>('t', ['welcome', 'refused', 'snapshot', 'progress', 'reply']);

/**
 * The separator between a client's id and its own ids, sessions and tasks on
 * the host, which keeps every tab's keys apart (supersession never crosses
 * tabs).
 */
export const SCOPE = '|';

/** `key` as the host names it for `clientId`. */
export function scoped(clientId: string, key: string): string {
  return `${clientId}${SCOPE}${key}`;
}
