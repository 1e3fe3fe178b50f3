import type { ChromeLike, ChromeSenderLike, RuntimeMessageListener, RuntimePortLike } from '../src/extension/index.js';

/** Node's setImmediate, which the fake clock leaves real: messages ride the real event loop, as in helpers.ts. */
const immediate = (globalThis as unknown as { setImmediate: (callback: () => void) => void }).setImmediate;

const NO_RECEIVER = 'Could not establish connection. Receiving end does not exist.';

interface Context {
  readonly kind: 'background' | 'offscreen' | 'content' | 'page';
  readonly sender: ChromeSenderLike;
  readonly onConnect: Set<(port: RuntimePortLike) => void>;
  readonly onMessage: Set<RuntimeMessageListener>;
  readonly ports: Set<FakePort>;
  lastError: { message: string } | undefined;
  alive: boolean;
}

class FakePort implements RuntimePortLike {
  other: FakePort | undefined;
  connected = true;
  readonly messages = new Set<(message: unknown) => void>();
  readonly disconnects = new Set<() => void>();
  readonly onMessage = {
    addListener: (l: (m: unknown) => void) => this.messages.add(l),
    removeListener: (l: (m: unknown) => void) => this.messages.delete(l),
  };
  readonly onDisconnect = {
    addListener: (l: () => void) => this.disconnects.add(l),
    removeListener: (l: () => void) => this.disconnects.delete(l),
  };

  constructor(
    readonly name: string,
    readonly owner: Context,
    readonly sender?: ChromeSenderLike,
  ) {
    owner.ports.add(this);
  }

  postMessage(message: unknown): void {
    if (!this.connected) throw new Error('Attempting to use a disconnected port object');
    const other = this.other;
    const copy = JSON.parse(JSON.stringify(message)) as unknown;
    immediate(() => {
      if (other?.connected) for (const listener of [...other.messages]) listener(copy);
    });
  }

  disconnect(): void {
    if (!this.connected) return;
    this.connected = false;
    this.owner.ports.delete(this);
    this.other?.remoteGone(undefined);
  }

  /** The other end went (or never was): onDisconnect fires here, with `lastError` set while it runs. */
  remoteGone(error: string | undefined): void {
    if (!this.connected) return;
    this.owner.ports.delete(this);
    // As Chrome: posting still works (the message is dropped) until onDisconnect has fired.
    this.other = undefined;
    immediate(() => {
      this.connected = false;
      this.owner.lastError = error === undefined ? undefined : { message: error };
      for (const listener of [...this.disconnects]) listener();
      this.owner.lastError = undefined;
    });
  }
}

/**
 * A browser with one extension in memory: a service worker, an offscreen
 * document made by `offscreen.createDocument` (listed at once, its script run
 * `scriptMs` later, as Chrome lists a document before its script has run),
 * content scripts and extension pages. Runtime ports carry JSON copies and
 * disconnect at once when no one listens; `sendMessage` reaches every other
 * extension context (never a content script).
 */
export function fakeExtension(options: {
  offscreenScript: (chrome: ChromeLike) => void;
  scriptMs?: number;
  setTimeout: (callback: () => void, ms: number) => unknown;
}) {
  const contexts = new Set<Context>();
  let offscreen: Context | undefined;
  const counts = { createDocument: 0, connects: 0, refusedConnects: 0 };
  const ID = 'fakeextensionid';

  const newContext = (kind: Context['kind'], sender: ChromeSenderLike): Context => {
    const context: Context = {
      kind,
      sender,
      onConnect: new Set(),
      onMessage: new Set(),
      ports: new Set(),
      lastError: undefined,
      alive: true,
    };
    contexts.add(context);
    return context;
  };

  const api = (context: Context): ChromeLike => ({
    runtime: {
      connect: ({ name }) => {
        counts.connects += 1;
        const port = new FakePort(name, context);
        const receivers = [...contexts].filter((c) => c !== context && c.alive && c.kind !== 'content' && c.onConnect.size > 0);
        if (receivers.length === 0) {
          counts.refusedConnects += 1;
          port.remoteGone(NO_RECEIVER);
          return port;
        }
        for (const receiver of receivers) {
          const end = new FakePort(name, receiver, context.sender);
          end.other = port;
          port.other = end;
          for (const listener of [...receiver.onConnect]) listener(end);
        }
        return port;
      },
      sendMessage: (message) => {
        const copy = JSON.parse(JSON.stringify(message)) as unknown;
        const receivers = [...contexts].filter((c) => c !== context && c.alive && c.kind !== 'content' && c.onMessage.size > 0);
        if (receivers.length === 0) return Promise.reject(new Error(NO_RECEIVER));
        return new Promise((resolve) => {
          let answered = false;
          let pending = 0;
          const respond = (response: unknown) => {
            if (answered) return;
            answered = true;
            immediate(() => resolve(JSON.parse(JSON.stringify(response ?? null)) as unknown));
          };
          immediate(() => {
            for (const receiver of receivers) {
              for (const listener of [...receiver.onMessage]) if (listener(copy, context.sender, respond) === true) pending += 1;
            }
            if (pending === 0 && !answered) resolve(undefined);
          });
        });
      },
      getURL: (path) => `chrome-extension://${ID}/${path}`,
      getContexts: async ({ contextTypes }) =>
        contextTypes.includes('OFFSCREEN_DOCUMENT') && offscreen ? [{ contextType: 'OFFSCREEN_DOCUMENT' }] : [],
      get lastError() {
        return context.lastError;
      },
      onConnect: { addListener: (l) => context.onConnect.add(l), removeListener: (l) => context.onConnect.delete(l) },
      onMessage: { addListener: (l) => context.onMessage.add(l), removeListener: (l) => context.onMessage.delete(l) },
    },
    offscreen: {
      createDocument: async ({ url }) => {
        await new Promise<void>((resolve) => immediate(resolve));
        if (offscreen) throw new Error('Only a single offscreen document may be created.');
        counts.createDocument += 1;
        const doc = newContext('offscreen', { url: `chrome-extension://${ID}/${url}` });
        offscreen = doc;
        options.setTimeout(() => {
          if (doc.alive) options.offscreenScript(api(doc));
        }, options.scriptMs ?? 50);
      },
      closeDocument: async () => {
        if (offscreen) kill(offscreen);
        offscreen = undefined;
      },
    },
  });

  const kill = (context: Context) => {
    context.alive = false;
    contexts.delete(context);
    for (const port of [...context.ports]) {
      port.connected = false;
      port.other?.remoteGone(undefined);
    }
  };

  const background = newContext('background', { url: `chrome-extension://${ID}/background.js` });
  let nextTab = 1;
  return {
    counts,
    background: api(background),
    /** A content script in a new tab. */
    contentScript: () => api(newContext('content', { tab: { id: nextTab++ }, url: 'https://example.com/' })),
    /** An extension page (popup, side panel). */
    page: (name: string) => api(newContext('page', { url: `chrome-extension://${ID}/${name}.html` })),
    hasOffscreen: () => offscreen !== undefined,
    /** The service worker is stopped: its listeners go; `restart` runs its script again. */
    stopWorker: () => {
      background.onMessage.clear();
      background.onConnect.clear();
      background.alive = false;
    },
    restartWorker: () => {
      background.alive = true;
    },
  };
}
