import { type LockManagerLike, type MessageEndpoint, holdLock, post, randomId, watchLock } from './messageEndpoint.js';
import type { Presence } from './presence.js';
import { type ClientMessage, type HostMessage, isHostMessage } from './protocol.js';

/** What a `HostLink` tells its client. */
export interface HostLinkEvents {
  /** A new connection opens: send (with `link.send`) what the new host must hear first. */
  replay(): void;
  /** The presence the hello carries. */
  presence(): Presence;
  /** A message from the host, other than the welcome. */
  message(message: Exclude<HostMessage, { t: 'welcome' }>): void;
  /** The host died (its lock was freed, its endpoint closed, or it refused a message). */
  lost(): void;
  /** No host could be reached (`connect` threw or rejected). */
  failed(error: unknown): void;
}

interface Connection {
  endpoint: MessageEndpoint | undefined;
  readonly outbox: ClientMessage[];
  clientId: string | undefined;
  clockOffset: number;
  dead: boolean;
  stopWatch: () => void;
  readonly listener: (event: { data: unknown }) => void;
  readonly onClose: () => void;
}

/**
 * A client's line to its host, one connection at a time: opens it on first
 * use (holding a Web Lock of its own first, so the host can tell when the tab
 * is gone), says hello, keeps messages until the endpoint is there, learns
 * the client's id and the host's clock from the welcome, and watches the
 * host's lock (and the endpoint's `close`) to tell the client when the host
 * dies.
 */
export class HostLink {
  #conn: Connection | undefined;
  #clientLock: { name: string; held: Promise<void>; release: () => void } | undefined;
  #closed = false;

  constructor(
    readonly connect: () => MessageEndpoint | Promise<MessageEndpoint>,
    readonly locks: LockManagerLike | null,
    readonly timeOrigin: number,
    readonly events: HostLinkEvents,
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
      endpoint: undefined,
      outbox: [],
      clientId: undefined,
      clockOffset: 0,
      dead: false,
      stopWatch: () => {},
      listener: (event) => {
        if (!conn.dead && isHostMessage(event.data)) this.#receive(conn, event.data);
      },
      onClose: () => this.#lost(conn),
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
      if (this.locks && !this.#clientLock) {
        const name = `inkling-pool-client:${randomId()}`;
        this.#clientLock = { name, ...holdLock(this.locks, name) };
      }
      await this.#clientLock?.held;
      const endpoint = await this.connect();
      if (conn.dead) {
        endpoint.close?.();
        return;
      }
      endpoint.addEventListener('message', conn.listener);
      endpoint.addEventListener('close', conn.onClose);
      endpoint.start?.();
      conn.endpoint = endpoint;
      post(endpoint, { t: 'hello', presence: this.events.presence(), lock: this.#clientLock?.name } satisfies ClientMessage);
      for (const message of conn.outbox.splice(0)) post(endpoint, message);
    } catch (error) {
      this.#teardown(conn);
      this.events.failed(error);
    }
  }

  #receive(conn: Connection, message: HostMessage): void {
    if (message.t !== 'welcome') {
      this.events.message(message);
      return;
    }
    conn.clientId = message.clientId;
    conn.clockOffset = message.timeOrigin - this.timeOrigin;
    if (this.locks && message.lock) conn.stopWatch = watchLock(this.locks, message.lock, () => this.#lost(conn));
  }

  #lost(conn: Connection): void {
    if (conn.dead) return;
    this.#teardown(conn);
    this.events.lost();
  }

  #teardown(conn: Connection): void {
    conn.dead = true;
    conn.stopWatch();
    conn.endpoint?.removeEventListener('message', conn.listener);
    conn.endpoint?.removeEventListener('close', conn.onClose);
    conn.endpoint?.close?.();
    if (this.#conn === conn) this.#conn = undefined;
  }
}
