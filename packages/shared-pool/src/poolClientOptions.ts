import { InvalidOptionError, type PoolTimers } from '@inkling/scheduler';
import { type ErrorClasses, checkDuration, globalTimers } from '@inkling/scheduler/engine';
import type { Seeking } from './hostLink.js';
import type { HostUnavailableError } from './errors.js';
import type { LockManagerLike, MessageEndpoint } from './messageEndpoint.js';
import type { PresenceSource } from './presence.js';

/** Options of `new PoolClient(...)`. */
export interface PoolClientOptions {
  /**
   * Opens an endpoint to the host (a SharedWorker's port, a channel to the
   * hosting tab). Called on first use, again after the host is lost, and
   * again (after a pause, see `reconnect`) when the last endpoint closed or
   * stayed silent before the host's welcome: then it gets that miss, as a
   * `HostUnavailableError`, to choose another host by. Required.
   */
  connect: (lastMiss?: HostUnavailableError) => MessageEndpoint | Promise<MessageEndpoint>;
  /**
   * How to look for a host that does not answer. A connection that closes
   * before the host's welcome, or gets none within `handshakeTimeoutMs`, is
   * a miss; the next waits `delayMs`, doubled after each further miss up to
   * `maxDelayMs`, each pause jittered to 50–100 % of that. After
   * `giveUpAfterMs` of misses in a row, waiting jobs and calls end with a
   * `HostUnavailableError` and the next call starts over. All in
   * milliseconds, 0 to 2^31-1. Defaults: `delayMs` 100, `maxDelayMs` 2000,
   * `handshakeTimeoutMs` 5000, `giveUpAfterMs` 15000; `random`
   * `Math.random`.
   */
  reconnect?: {
    delayMs?: number;
    maxDelayMs?: number;
    handshakeTimeoutMs?: number;
    giveUpAfterMs?: number;
    random?: () => number;
  };
  /** Timers for the handshake timeout and the pauses. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  /**
   * Error classes to rebuild besides the scheduler's and `HostLostError`,
   * keyed by their instances' `name`. Default: none.
   */
  errorClasses?: ErrorClasses;
  /** This tab's visibility and focus. Default: `documentPresence()`. */
  presence?: PresenceSource;
  /** Web Locks, to learn of the host's death. Default: `navigator.locks`; `null` turns it off. */
  locks?: LockManagerLike | null;
  /** Clock for results the client makes itself. Default `performance.now`. */
  now?: () => number;
  /** Where `now` counts from, to put the host's times on this clock. Default `performance.timeOrigin`. */
  timeOrigin?: number;
}

/**
 * Throws the house's `InvalidOptionError` sentence, `PoolClient <field> must
 * be <want>; it got <type>.`, naming the value's type as `submit()` does:
 * the kit's `mustBe` would bring its value printer to every client (+110 B).
 */
export function refuseOption(field: string, want: string, value: unknown): never {
  throw new InvalidOptionError(`PoolClient ${field} must be ${want}; it got ${value === null ? 'null' : typeof value}.`);
}

/** `reconnect` checked (`{}` when left out), after `connect` and `timers`; an `InvalidOptionError` for a bad option. */
export function checkOptions(options: PoolClientOptions): NonNullable<PoolClientOptions['reconnect']> {
  const { connect, reconnect, timers } = options ?? {};
  if (typeof connect !== 'function')
    refuseOption('"connect"', 'a function that returns an endpoint to the host, e.g. () => sharedWorker.port', connect);
  if (timers !== undefined && (typeof timers?.setTimeout !== 'function' || typeof timers.clearTimeout !== 'function'))
    refuseOption('"timers"', 'an object with setTimeout and clearTimeout functions', timers);
  if (reconnect === undefined) return {};
  if (typeof reconnect !== 'object' || reconnect === null) {
    refuseOption('"reconnect"', 'an object such as { delayMs: 100, giveUpAfterMs: 15000 }', reconnect);
  }
  for (const key of ['delayMs', 'maxDelayMs', 'handshakeTimeoutMs', 'giveUpAfterMs'] as const) {
    checkDuration(reconnect[key], `PoolClient "reconnect.${key}"`, { never: false });
  }
  if (reconnect.random !== undefined && typeof reconnect.random !== 'function') {
    refuseOption('"reconnect.random"', 'a function returning a number from 0 to 1, like Math.random', reconnect.random);
  }
  return reconnect;
}

/** How the client's `HostLink` seeks a host: `reconnect` (checked) with its defaults filled in. */
export function seeking(
  reconnect: NonNullable<PoolClientOptions['reconnect']>,
  timers: PoolTimers | undefined,
  now: () => number,
): Seeking {
  const { delayMs = 100, maxDelayMs = 2000, handshakeTimeoutMs = 5000, giveUpAfterMs = 15_000, random = Math.random } = reconnect;
  return { timers: timers ?? globalTimers, now, random, delayMs, maxDelayMs, handshakeTimeoutMs, giveUpAfterMs };
}
