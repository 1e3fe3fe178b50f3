import { WebLLMUnavailableError } from '../errors.js';
import type { WebLLMModule, WebLLMSource } from '../types.js';

/**
 * The WebLLM module: the one given, or `@mlc-ai/web-llm` imported on first
 * use. Importing `@inkling/webllm` itself never loads WebLLM, so it is safe in
 * Node and during server rendering.
 *
 * @example
 * const webllm = await loadWebLLM(); // or loadWebLLM(() => import('@mlc-ai/web-llm'))
 */
export async function loadWebLLM(source?: WebLLMSource): Promise<WebLLMModule> {
  if (source && typeof source === 'object') return source;
  try {
    const module = source ? await source() : await importWebLLM();
    return module;
  } catch (error) {
    throw new WebLLMUnavailableError({ cause: error });
  }
}

async function importWebLLM(): Promise<WebLLMModule> {
  const module: unknown = await import('@mlc-ai/web-llm');
  return module as WebLLMModule;
}
