import { type MessageEndpoint, post, randomId } from './messageEndpoint.js';

/** The part of `BroadcastChannel` the fallback uses. */
export interface BroadcastChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** Makes a channel by name (`new BroadcastChannel(name)`). */
export type OpenChannel = (name: string) => BroadcastChannelLike;

/** An addressed envelope on the channel; `who`/`here` find the host. */
type Envelope =
  | { readonly k: 'who' }
  | { readonly k: 'here'; readonly hostId: string }
  | { readonly k: 'msg'; readonly to: string; readonly from: string; readonly data: unknown };

function envelope(data: unknown): Envelope | undefined {
  return typeof data === 'object' && data !== null && typeof (data as { k?: unknown }).k === 'string' ? (data as Envelope) : undefined;
}

type Listener = (event: { data: unknown }) => void;

function listeners() {
  const set = new Set<Listener>();
  return {
    add: (listener: Listener) => set.add(listener),
    remove: (listener: Listener) => set.delete(listener),
    emit: (data: unknown) => {
      for (const listener of [...set]) listener({ data });
    },
  };
}

/**
 * A tab's endpoint to the host tab over a `BroadcastChannel`: it asks who
 * hosts, waits for an answer (or for a new host to announce itself), then
 * sends addressed messages to it and hears only those addressed to itself.
 * Messages posted before a host answered are kept and sent then.
 *
 * @example
 * const endpoint = broadcastClientEndpoint('inkling-pool:notes', (name) => new BroadcastChannel(name));
 */
export function broadcastClientEndpoint(channelName: string, open: OpenChannel): MessageEndpoint {
  const channel = open(channelName);
  const me = randomId();
  const heard = listeners();
  const outbox: unknown[] = [];
  let host: string | undefined;
  const send = (data: unknown) => post(channel, { k: 'msg', to: host ?? '', from: me, data } satisfies Envelope);
  const onMessage = (event: { data: unknown }) => {
    const message = envelope(event.data);
    if (message?.k === 'here' && host === undefined) {
      host = message.hostId;
      for (const data of outbox.splice(0)) send(data);
    } else if (message?.k === 'msg' && message.to === me && message.from === host) {
      heard.emit(message.data);
    }
  };
  channel.addEventListener('message', onMessage);
  post(channel, { k: 'who' } satisfies Envelope);
  return {
    postMessage: (data) => (host === undefined ? outbox.push(data) : send(data)),
    addEventListener: (type, listener) => type === 'message' && heard.add(listener),
    removeEventListener: (type, listener) => type === 'message' && heard.remove(listener),
    close: () => {
      channel.removeEventListener('message', onMessage);
      channel.close();
    },
  };
}

/**
 * The host tab's side of the channel: answers `who`, announces itself, and
 * calls `onClient` with an endpoint for each tab that says hello.
 * Returns the function that closes the channel.
 *
 * @example
 * const stop = broadcastHost('inkling-pool:notes', open, hostId, (endpoint) => host.serve(endpoint));
 */
export function broadcastHost(
  channelName: string,
  open: OpenChannel,
  hostId: string,
  onClient: (endpoint: MessageEndpoint) => void,
): () => void {
  const channel = open(channelName);
  const clients = new Map<string, ReturnType<typeof listeners>>();
  const onMessage = (event: { data: unknown }) => {
    const message = envelope(event.data);
    if (message?.k === 'who') post(channel, { k: 'here', hostId } satisfies Envelope);
    if (message?.k !== 'msg' || message.to !== hostId) return;
    let client = clients.get(message.from);
    if (!client) {
      // A tab starts with hello; anything else is for a host that is gone.
      if ((message.data as { t?: unknown } | null)?.t !== 'hello') return;
      const from = message.from;
      const heard = listeners();
      client = heard;
      clients.set(from, heard);
      onClient({
        postMessage: (data) => post(channel, { k: 'msg', to: from, from: hostId, data } satisfies Envelope),
        addEventListener: (type, listener) => type === 'message' && heard.add(listener),
        removeEventListener: (type, listener) => type === 'message' && heard.remove(listener),
        close: () => clients.delete(from),
      });
    }
    client.emit(message.data);
  };
  channel.addEventListener('message', onMessage);
  post(channel, { k: 'here', hostId } satisfies Envelope);
  return () => {
    channel.removeEventListener('message', onMessage);
    channel.close();
  };
}
