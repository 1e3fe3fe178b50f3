/**
 * An in-memory Cache API (`caches.open(scope)` and the few Cache methods
 * WebLLM's artifact cache calls), for hosts without one, like Node. Weights
 * are kept for the life of the thread.
 */
export function installCachePolyfill(): void {
  if ((globalThis as { caches?: unknown }).caches) return;
  const stores = new Map<string, MemoryCache>();
  const caches = {
    open: async (scope: string) => {
      let store = stores.get(scope);
      if (!store) stores.set(scope, (store = new MemoryCache()));
      return store;
    },
    delete: async (scope: string) => stores.delete(scope),
    has: async (scope: string) => stores.has(scope),
    keys: async () => [...stores.keys()],
  };
  Object.defineProperty(globalThis, 'caches', { value: caches, configurable: true });
}

type Key = Request | string | URL;

class MemoryCache {
  readonly #entries = new Map<string, { body: ArrayBuffer; headers: [string, string][]; status: number }>();

  async match(key: Key): Promise<Response | undefined> {
    const entry = this.#entries.get(urlOf(key));
    return entry && new Response(entry.body.slice(0), { headers: entry.headers, status: entry.status });
  }

  async add(key: Key): Promise<void> {
    const response = await fetch(urlOf(key));
    if (!response.ok) throw new TypeError(`Cannot fetch ${urlOf(key)}: ${response.status}`);
    await this.put(key, response);
  }

  async put(key: Key, response: Response): Promise<void> {
    this.#entries.set(urlOf(key), { body: await response.arrayBuffer(), headers: [...response.headers], status: response.status });
  }

  async delete(key: Key): Promise<boolean> {
    return this.#entries.delete(urlOf(key));
  }

  async keys(): Promise<Request[]> {
    return [...this.#entries.keys()].map((url) => new Request(url));
  }
}

function urlOf(key: Key): string {
  return typeof key === 'string' ? key : key instanceof URL ? key.href : key.url;
}
