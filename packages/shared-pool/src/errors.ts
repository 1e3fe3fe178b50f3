import { InklingError, InvalidJobError } from '@inkling/scheduler';

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

/**
 * No pool host answered: every connection closed (or stayed silent past
 * `handshakeTimeoutMs`) before the host's welcome, for longer than
 * `reconnect.giveUpAfterMs`. A broken SharedWorker script, an extension
 * whose offscreen document cannot be created, a `connect` that reaches
 * nothing. Waiting jobs end with it (a `HostLostError`, so code that retries
 * host losses retries this too); the next call looks for a host again.
 *
 * @example
 * const result = await pool.submit(spec);
 * if (result.error instanceof HostUnavailableError) showBanner('The model host did not start: ' + result.error.message);
 */
export class HostUnavailableError extends HostLostError {
  override name = 'HostUnavailableError';
}

/**
 * The shared pool's host refused a job, or a message, of this client for
 * being over its limits (`PoolHostOptions.limits`): a key or prompt too long,
 * too many messages, too many jobs at once. Only this client's request is
 * refused; nothing else in the pool is touched. The message names the limit.
 *
 * @example
 * const result = await pool.submit(spec);
 * if (result.error instanceof ClientLimitError) console.warn(result.error.message);
 */
export class ClientLimitError extends InvalidJobError {
  override name = 'ClientLimitError';
}

/**
 * The shared pool's host and this client come from different builds of
 * `@inkling/shared-pool` and speak different versions of its protocol (a tab
 * left open across a deploy, an extension updated under open pages): they
 * would misread each other, so the host does not serve this client. Waiting
 * jobs and calls end with this error, and so does each next one until the
 * page is reloaded. Kind `'setup'`; not retryable. The message names both
 * versions.
 *
 * @example
 * if (result.error instanceof PoolVersionError) showBanner('Inkling was updated: reload the page.');
 */
export class PoolVersionError extends InklingError {
  override name = 'PoolVersionError';
  override readonly kind = 'setup';
}
