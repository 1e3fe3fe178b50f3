import { defaultLocks, deleteUnlessInUse } from '@inkling/scheduler/storage';
import { modelNotFound } from '../errors.js';
import { loadWebLLM } from './loadWebLLM.js';
import { resolveAppConfig } from '../resolveAppConfig.js';
import type { CacheBackend, WebLLMAppConfig, WebLLMSource } from '../types.js';
import { webllmLockName } from './webllmRoom.js';

/** Options of `isModelCached` and `deleteModel`: the same as the engines were given. */
export interface ModelCacheOptions {
  /** Default: WebLLM's `prebuiltAppConfig`. */
  appConfig?: WebLLMAppConfig;
  /** Default: what `appConfig` says, else `'cache'`. */
  cache?: CacheBackend;
  /** Default: `import('@mlc-ai/web-llm')`. */
  webllm?: WebLLMSource;
}

/**
 * Whether a model's weights are already downloaded, so a load will not fetch
 * them. Pass the same `appConfig` and `cache` the engines use.
 *
 * @example
 * const label = (await isModelCached(model)) ? 'Ready offline' : 'Downloads ~1 GB';
 */
export async function isModelCached(model: string, options: ModelCacheOptions = {}): Promise<boolean> {
  const { webllm, appConfig } = await resolve(model, options);
  return webllm.hasModelInCache(model, appConfig);
}

/**
 * Deletes a model's weights, tokenizer, config and library from the cache.
 * Rejects with `ModelInUseError`, deleting nothing, while a tab downloads or
 * loads it (`webllmModelStorage().delete()` does the same and also removes
 * the weights' manifest WebLLM leaves behind).
 *
 * @example
 * await pool.unload();
 * await deleteModel('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
 */
export async function deleteModel(model: string, options: ModelCacheOptions = {}): Promise<void> {
  const { webllm, appConfig } = await resolve(model, options);
  await deleteUnlessInUse(defaultLocks(), webllmLockName(model), model, () => webllm.deleteModelAllInfoInCache(model, appConfig));
}

async function resolve(model: string, options: ModelCacheOptions) {
  const webllm = await loadWebLLM(options.webllm);
  const appConfig = resolveAppConfig(options.appConfig ?? (webllm.prebuiltAppConfig as WebLLMAppConfig), options.cache);
  if (!appConfig.model_list.some((r) => r.model_id === model)) throw modelNotFound(model);
  return { webllm, appConfig };
}
