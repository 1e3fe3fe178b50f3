import type { PoolTimers } from '@inkling/scheduler';
import { HostUnavailableError, PoolVersionError } from './errors.js';
import { type LockManagerLike, type MessageEndpoint, holdLock, post, randomId, watchLock } from './messageEndpoint.js';
import type { Presence } from './presence.js';
import { type ClientMessage, type HostMessage, PROTOCOL, isHostMessage } from './protocol.js';

/** What a `HostLink` tells its client. */
export interface HostLinkEvents {
  /** A new connection opens: send (with `link.send`) what the new host must hear first. */
  replay(): void;
  /** The presence the hello carries. */
  presence(): Presence;
  /** A message from the host, other than the welcome (or a refusal). */
  message(message: Exclude<HostMessage, { t: 'welcome' | 'refused' }>): void;
  /** The host died (its lock was freed, its endpoint closed, or it refused a message). */
  lost(): void;
  /** No host could be reached (`connect` threw or rejected, or no host answered within the bound). */
  failed(error: unknown): void;
  /** A connection ended before the host's welcome: connect again (after a pause) if there is work. */
  missed(): void;
}

/** How a `HostLink` looks for a host that does not answer; every field is required here (`PoolClient` fills in defaults). */
export interface Seeking {
  readonly timers: PoolTimers;
  readonly now: () => number;
  /** 0 to 1, for the jitter. */
  readonly random: () => number;
  /** The pause after the first connection that ended before the welcome; doubled after each next one. */
  readonly delayMs: number;
  /** The longest pause. */
  readonly maxDelayMs: number;
  /** A connection with no welcome after this long counts as one that ended. */
  readonly handshakeTimeoutMs: number;
  /** With no welcome for this long since the first miss, the link gives up (`failed`, a `HostUnavailableError`). */
  readonly giveUpAfterMs: number;
}

interface Connection {
  endpoint?: MessageEndpoint;
  readonly outbox: ClientMessage[];
  clientId?: string;
  clockOffset: number;
  dead: boolean;
  stopWatch: () => void;
  /** The handshake timer, or the pause before connecting. */
  timer?: unknown;
  /** Ends the pause early (the connection was dropped meanwhile). */
  wake: () => void;
  readonly listener: (event: { data: unknown }) => void;
  readonly onClose: (event: { data: unknown }) => void;
}

/**
 * A client's line to its host, one connection at a time: opens it on first
 * use (holding a Web Lock of its own first, so the host can tell when the tab
 * is gone), says hello, keeps messages until the endpoint is there, learns
 * the client's id and the host's clock from the welcome, and watches the
 * host's lock (and the endpoint's `close`) to tell the client when the host
 * dies. A connection that ends (or stays silent) before the welcome is a
 * miss: the next one waits a jittered pause that doubles up to a bound, and
 * after `giveUpAfterMs` of misses the link gives up with a
 * `HostUnavailableError`, so an endpoint with no host behind it (a runtime
 * port while no offscreen document exists) is not reopened in a tight loop.
 */
export class HostLink {
  #conn: Connection | undefined;
  #clientLock: { name: string; held: Promise<void>; release: () => void } | undefined;
  #closed = false;
  /** Connections in a row that ended before the welcome, the time of the first, and why the last did. */
  #misses = 0;
  #missingSince = 0;
  #lastMiss: HostUnavailableError | undefined;

  constructor(
    readonly connect: (lastMiss?: HostUnavailableError) => MessageEndpoint | Promise<MessageEndpoint>,
    readonly locks: LockManagerLike | null,
    readonly timeOrigin: number,
    readonly events: HostLinkEvents,
    readonly seeking: Seeking,
  ) {}

  /** The id the host gave the client on this connection. */
  get clientId(): string | undefined {
    return this.#conn?.clientId;
  }

  /** Add to the host's times to get this side's. */
  get clockOffset(): number {
    return this.#conn?.clockOffset ?? 0;
  }

  /** True while a connection is open or opening. */
  get connected(): boolean {
    return this.#conn !== undefined;
  }

  /** True once the endpoint is there (messages go out at once). */
  get open(): boolean {
    return this.#conn?.endpoint !== undefined;
  }

  /** Sends a message, connecting first if needed; kept until the endpoint opens. */
  send(message: ClientMessage): void {
    const conn = this.ensure();
    if (!conn) return;
    if (!conn.endpoint) {
      conn.outbox.push(message);
      return;
    }
    try {
      post(conn.endpoint, message);
    } catch {
      this.#lost(conn);
    }
  }

  /** The current connection, made (and replayed) if there is none. */
  ensure(): Connection | undefined {
    if (this.#closed) return undefined;
    if (this.#conn) return this.#conn;
    const conn: Connection = {
      outbox: [],
      clockOffset: 0,
      dead: false,
      stopWatch: () => {},
      wake: () => {},
      listener: (event) => {
        if (!conn.dead && isHostMessage(event.data)) this.#receive(conn, event.data);
      },
      // An endpoint may say why it closed (a runtime port: "Receiving end does not exist").
      onClose: (event) =>
        this.#lost(conn, typeof event?.data === 'string' && event.data !== '' ? `the endpoint closed (${event.data})` : undefined),
    };
    this.#conn = conn;
    this.events.replay();
    void this.#open(conn);
    return conn;
  }

  /** Ends the line for good: the endpoint closes and the tab's lock goes. */
  close(): void {
    this.#closed = true;
    if (this.#conn) this.#teardown(this.#conn);
    this.#clientLock?.release();
  }

  async #open(conn: Connection): Promise<void> {
    try {
      if (this.#misses > 0 && !(await this.#pause(conn))) return;
      if (this.locks && !this.#clientLock) {
        const name = `inkling-pool-client:${randomId()}`;
        this.#clientLock = { name, ...holdLock(this.locks, name) };
      }
      await this.#clientLock?.held;
      if (conn.dead) return;
      const endpoint = await this.connect(this.#lastMiss);
      if (conn.dead) {
        endpoint.close?.();
        return;
      }
      endpoint.addEventListener('message', conn.listener);
      endpoint.addEventListener('close', conn.onClose);
      endpoint.start?.();
      conn.endpoint = endpoint;
      const { handshakeTimeoutMs } = this.seeking;
      conn.timer = this.seeking.timers.setTimeout(
        () => this.#lost(conn, `the host did not answer within ${handshakeTimeoutMs} ms (handshakeTimeoutMs)`),
        handshakeTimeoutMs,
      );
      try {
        post(endpoint, {
          t: 'hello',
          protocol: PROTOCOL,
          presence: this.events.presence(),
          lock: this.#clientLock?.name,
        } satisfies ClientMessage);
        for (const message of conn.outbox.splice(0)) post(endpoint, message);
      } catch (error) {
        // An endpoint that is already closed (a runtime port with no receiver): a miss, tried again.
        this.#lost(conn, `sending to it failed (${error instanceof Error ? error.message : String(error)})`);
      }
    } catch (error) {
      this.#teardown(conn);
      this.events.failed(error);
    }
  }

  /**
   * Waits the pause the misses so far call for; false (and the client told
   * it failed) once they have lasted `giveUpAfterMs`, or if the connection
   * was dropped meanwhile.
   */
  async #pause(conn: Connection): Promise<boolean> {
    const { timers, now, random, delayMs, maxDelayMs, giveUpAfterMs } = this.seeking;
    const waited = now() - this.#missingSince;
    if (waited >= giveUpAfterMs) {
      const error = new HostUnavailableError(
        `No pool host answered for ${Math.round(waited)} ms (${this.#misses} tries). ${this.#lastMiss?.message ?? ''} Check that the host runs (the SharedWorker's script, the offscreen document); the next call tries again.`,
        { cause: this.#lastMiss },
      );
      this.#misses = 0;
      this.#lastMiss = undefined;
      this.#teardown(conn);
      this.events.failed(error);
      return false;
    }
    const pause = Math.min(maxDelayMs, delayMs * 2 ** (this.#misses - 1)) * (0.5 + random() / 2);
    await new Promise<void>((resume) => {
      conn.wake = resume;
      conn.timer = timers.setTimeout(resume, pause);
    });
    return !conn.dead;
  }

  #receive(conn: Connection, message: HostMessage): void {
    if (message.t === 'refused' || (message.t === 'welcome' && message.protocol !== PROTOCOL)) {
      // Another build: what each sends, the other would misread. Reloading is the cure, not retrying.
      this.#teardown(conn);
      this.events.failed(
        new PoolVersionError(
          `The pool's host speaks ${message.protocol ?? 'no protocol version'}, this page ${PROTOCOL}: different builds of @inkling/shared-pool. Reload the page (update the extension first, for an extension's pool).`,
        ),
      );
      return;
    }
    if (message.t !== 'welcome') {
      this.events.message(message);
      return;
    }
    this.seeking.timers.clearTimeout(conn.timer);
    this.#misses = 0;
    this.#lastMiss = undefined;
    conn.clientId = message.clientId;
    conn.clockOffset = message.timeOrigin - this.timeOrigin;
    if (this.locks && message.lock) conn.stopWatch = watchLock(this.locks, message.lock, () => this.#lost(conn));
  }

  #lost(conn: Connection, why = 'the endpoint closed before the host answered'): void {
    if (conn.dead) return;
    this.#teardown(conn);
    if (conn.clientId !== undefined) {
      this.events.lost();
      return;
    }
    if (this.#misses === 0) this.#missingSince = this.seeking.now();
    this.#misses += 1;
    this.#lastMiss = new HostUnavailableError(`No welcome from the pool's host: ${why.replace(/\.+$/, '')}.`);
    this.events.missed();
  }

  #teardown(conn: Connection): void {
    conn.dead = true;
    this.seeking.timers.clearTimeout(conn.timer);
    conn.wake();
    conn.stopWatch();
    conn.endpoint?.removeEventListener('message', conn.listener);
    conn.endpoint?.removeEventListener('close', conn.onClose);
    conn.endpoint?.close?.();
    if (this.#conn === conn) this.#conn = undefined;
  }
}
