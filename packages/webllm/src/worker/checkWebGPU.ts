import { type GPULike, type WebGPUSupport, detectWebGPU } from '../detectWebGPU.js';
import { WebGPUUnavailableError, shaderF16Unsupported } from '../errors.js';
import { f32Variant, needsShaderF16 } from '../modelCatalogue.js';
import type { WebLLMModelRecord } from '../types.js';

/**
 * In the engine worker, before WebLLM loads anything: refuses a GPU WebLLM
 * cannot use, in words a user can act on. No adapter is a
 * `WebGPUUnavailableError`; an f16 model on an adapter without `shader-f16`
 * a `ShaderF16UnsupportedError` naming the f32 build. `gpu` is the worker's
 * own `navigator.gpu` unless given. Resolves with what it found.
 *
 * @example
 * await checkWebGPU(record, undefined); // throws when WebLLM could not run this model here
 */
export async function checkWebGPU(record: WebLLMModelRecord, gpu: GPULike | null | undefined): Promise<WebGPUSupport> {
  const support = await detectWebGPU({ gpu });
  if (!support.supported) throw new WebGPUUnavailableError(support.reason ?? 'no adapter.');
  if (needsShaderF16(record) && !support.shaderF16) {
    throw shaderF16Unsupported(record.model_id, f32Variant(record.model_id));
  }
  return support;
}

/** A software adapter (SwiftShader, WARP): `isFallbackAdapter`, or SwiftShader by name where a browser does not say so. */
export function isSoftwareAdapter(support: WebGPUSupport | undefined): boolean {
  const adapter = support?.adapter;
  if (!adapter) return false;
  return adapter.isFallbackAdapter || /swiftshader/i.test(`${adapter.architecture} ${adapter.device} ${adapter.description}`);
}
