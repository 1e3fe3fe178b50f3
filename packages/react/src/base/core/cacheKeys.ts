/**
 * The TanStack Query keys Inkling caches results under. Every key starts with
 * `['inkling', modelId]`, so `queryClient.removeQueries({ queryKey:
 * inklingKeys.model(modelId) })` forgets everything one model produced.
 *
 * @example
 * queryClient.getQueryData(inklingKeys.translation('Qwen2.5-1.5B', 'en', 'fr', 'Hello'));
 */
export const inklingKeys = {
  /** Everything cached for one model. */
  model: (modelId: string) => ['inkling', modelId] as const,
  /** One translated string. `from` is `'auto'` when not given. */
  translation: (modelId: string, from: string | undefined, to: string, text: string) =>
    ['inkling', modelId, 'translation', from ?? 'auto', to, text] as const,
  /** One text's embedding vector. */
  embedding: (modelId: string, text: string) => ['inkling', modelId, 'embedding', text] as const,
  /** A list of texts' vectors, in order. */
  embeddings: (modelId: string, texts: readonly string[]) => ['inkling', modelId, 'embeddings', [...texts]] as const,
};

/**
 * Where finished results are kept. The hooks pass a TanStack `QueryClient`
 * through `queryClientCache`; tests may use `mapCache()`.
 */
export interface ResultCache {
  read(key: readonly unknown[]): unknown;
  write(key: readonly unknown[], value: unknown): void;
}

/**
 * A `ResultCache` over a `Map`, for controllers used without TanStack Query.
 *
 * @example
 * const cache = mapCache();
 * new BatchTranslateController(pool, { task: 'page', items, to: 'fr' }, { cache, modelId: 'm' });
 */
export function mapCache(): ResultCache & { readonly size: number } {
  const map = new Map<string, unknown>();
  return {
    read: (key) => map.get(JSON.stringify(key)),
    write: (key, value) => void map.set(JSON.stringify(key), value),
    get size() {
      return map.size;
    },
  };
}

/** The part of TanStack's `QueryClient` a `ResultCache` needs. */
export interface QueryDataClient {
  getQueryData(queryKey: readonly unknown[]): unknown;
  setQueryData(queryKey: readonly unknown[], updater: unknown): unknown;
}

/**
 * A `ResultCache` that keeps results in a TanStack `QueryClient`, where they
 * follow its `gcTime` and can be read, invalidated or persisted like any query.
 *
 * @example
 * const cache = queryClientCache(queryClient);
 */
export function queryClientCache(client: QueryDataClient): ResultCache {
  return {
    read: (key) => client.getQueryData(key),
    // An updater function is the one value `setQueryData` would call rather than store.
    write: (key, value) => void client.setQueryData(key, typeof value === 'function' ? () => value : value),
  };
}
