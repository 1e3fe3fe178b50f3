import { type ChatCompletionChunk, type JobSpec } from '@inkling/scheduler';
import { type CallMessage, type CallProgress, type CallReply, messageMatcher } from '@inkling/scheduler/engine';
import type { WireResult, WireStatus } from './errorCodec.js';
import type { Presence } from './presence.js';

/**
 * The name and version of the messages between a client and its host, said
 * in the client's `hello` and the host's `welcome`. A host refuses a client
 * of another version (`refused`), and a client ends with a `PoolVersionError`
 * when the host speaks another (or, built before versions, none): builds that
 * differ would misread each other (`/2`: a settings call carries `input`, was
 * `patch`). Raise it with any change either side would misread.
 */
export const PROTOCOL = 'inkling-pool/2';

/**
 * A job spec as it crosses: no `signal` (an abort becomes an `abort`
 * message), no `onChunk` (`stream` asks for `chunk` messages instead), no
 * `owner` (the host sets it to the client's id).
 */
export type WireSpec = Omit<JobSpec, 'signal' | 'onChunk' | 'owner'> & { readonly stream: boolean };

/**
 * The settings calls a client makes (the kit's `CallMessage`: `input` is
 * `configure`'s patch), each answered by a `reply` (`CallReply`), a load's
 * progress by `progress` (`CallProgress`) before it.
 */
export type CallOp = 'load' | 'unload' | 'configure';

/**
 * What a client (a tab) sends to the host. A job crosses under `ref`, a
 * number the client gives each submission and never reuses on one
 * connection: the app's `id` may come back after a `cancel()`, and an answer
 * to the job it named before must never reach the new one.
 */
export type ClientMessage =
  | { readonly t: 'hello'; readonly protocol: string; readonly presence: Presence; readonly lock: string | undefined }
  | { readonly t: 'presence'; readonly presence: Presence }
  | { readonly t: 'submit'; readonly ref: number; readonly id: string; readonly spec: WireSpec }
  | { readonly t: 'abort'; readonly ref: number; readonly superseded?: true }
  | { readonly t: 'cancel'; readonly key: string }
  | CallMessage<CallOp>
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
  | { readonly t: 'chunk'; readonly ref: number; readonly chunk: ChatCompletionChunk }
  | { readonly t: 'result'; readonly ref: number; readonly result: WireResult }
  | { readonly t: 'snapshot'; readonly status: WireStatus }
  | CallProgress
  | CallReply;

/** True for a message a client sends; anything else on the endpoint is ignored. */
// Pure: a client bundle that never reads it drops it (and a host bundle `isHostMessage`).
export const isClientMessage = /* @__PURE__ */ messageMatcher<ClientMessage>('t', [
  'hello',
  'presence',
  'submit',
  'abort',
  'cancel',
  'call',
  'bye',
]);

/** True for a message the host sends; anything else on the endpoint is ignored. */
export const isHostMessage = /* @__PURE__ */ messageMatcher<HostMessage>('t', [
  'welcome',
  'refused',
  'chunk',
  'result',
  'snapshot',
  'progress',
  'reply',
]);

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
