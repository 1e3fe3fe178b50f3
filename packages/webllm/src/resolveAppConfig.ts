import type { CacheBackend, WebLLMAppConfig } from './types.js';

/**
 * A copy of `appConfig` whose cache backend every WebLLM in the peer range
 * reads: `cacheBackend` (0.2.83 on) and `useIndexedDBCache` (before) agree.
 * The backend is `cache` when given, else what `appConfig` says, else the
 * Cache API.
 *
 * @example
 * resolveAppConfig({ model_list: [] }, 'indexeddb');
 * // { model_list: [], cacheBackend: 'indexeddb', useIndexedDBCache: true }
 */
export function resolveAppConfig(appConfig: WebLLMAppConfig, cache?: CacheBackend): WebLLMAppConfig {
  const backend: CacheBackend = cache ?? appConfig.cacheBackend ?? (appConfig.useIndexedDBCache === true ? 'indexeddb' : 'cache');
  return { ...appConfig, cacheBackend: backend, useIndexedDBCache: backend === 'indexeddb' };
}
