import type { CancelReason } from './types.js';

/**
 * The abort reason that says "a newer request of the same session replaced
 * this one": `controller.abort(SUPERSEDED)` ends the job `cancelled` with
 * `cancelReason: 'supersede'`, as a second submit with the same `session`
 * would, so an inspector counts a keystroke's stale request as superseded,
 * not as cancelled by the app.
 *
 * @example
 * previous.abort(SUPERSEDED); // the next keystroke's request is on its way
 */
export const SUPERSEDED = 'supersede';

/** Why a job whose signal was aborted ended: `'supersede'` for `SUPERSEDED`, else `'abort'`. */
export function abortReasonOf(signal: AbortSignal): CancelReason {
  return signal.reason === SUPERSEDED ? 'supersede' : 'abort';
}
