import { InklingError } from '@inkling/scheduler';

/**
 * The pool's host went away while the job was running: the SharedWorker was
 * killed, the tab that hosted the pool closed or crashed. `text` of the result
 * holds what had streamed; the same request may pass if sent again
 * (`retryable: true`), and the client reconnects to a new host on its own.
 * Jobs that had streamed nothing yet are resubmitted to the new host for you
 * and never see this error.
 *
 * @example
 * const result = await pool.submit(spec);
 * if (result.error instanceof HostLostError) await pool.submit(spec); // or let the hooks do it
 */
export class HostLostError extends InklingError {
  override name = 'HostLostError';
  override readonly kind = 'crashed';
  override readonly retryable = true;
}
