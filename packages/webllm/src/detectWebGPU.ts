import { NO_WEBGPU } from './noWebGPU.js';

/** The part of `navigator.gpu` detection reads; inject your own in tests or Node. */
export interface GPULike {
  requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<GPUAdapterLike | null>;
}

/** The part of a `GPUAdapter` detection reads. */
export interface GPUAdapterLike {
  readonly features: { has(name: string): boolean };
  readonly limits: Readonly<Record<string, unknown>>;
  readonly info?: GPUAdapterInfoLike;
  /** Where browsers before Chromium 156 said "software adapter"; newer ones say it in `info`. */
  readonly isFallbackAdapter?: boolean;
  /** Older browsers (Chrome before 127) only. */
  requestAdapterInfo?(): Promise<GPUAdapterInfoLike>;
}

/** What an adapter says about itself. */
export interface GPUAdapterInfoLike {
  readonly vendor?: string;
  readonly architecture?: string;
  readonly device?: string;
  readonly description?: string;
  /** A software adapter (Chromium 156 on; earlier browsers put it on the adapter). */
  readonly isFallbackAdapter?: boolean;
}

/** What `detectWebGPU` found. */
export interface WebGPUSupport {
  /** An adapter was found. */
  supported: boolean;
  /** Why not, in words; `null` when supported. */
  reason: string | null;
  adapter: {
    vendor: string;
    architecture: string;
    device: string;
    description: string;
    /** A software adapter (SwiftShader, WARP): correct, but slow. */
    isFallbackAdapter: boolean;
  } | null;
  /** The adapter offers `shader-f16`, which the `q*f16` models need. */
  shaderF16: boolean;
  /** The limits that decide which models fit; `null` when unsupported. */
  limits: {
    maxBufferSize: number;
    maxStorageBufferBindingSize: number;
    maxComputeWorkgroupStorageSize: number;
    maxComputeInvocationsPerWorkgroup: number;
  } | null;
}

/** Options of `detectWebGPU`. */
export interface DetectWebGPUOptions {
  /** The WebGPU entry point; `null` means none. Default: `navigator.gpu`, looked up when called. */
  gpu?: GPULike | null;
  /** Default `'high-performance'`. */
  powerPreference?: 'low-power' | 'high-performance';
}

/**
 * Finds out whether this browser can run WebLLM: is there WebGPU, an adapter,
 * `shader-f16`, and which limits. Never throws; what went wrong is in `reason`.
 *
 * @example
 * const gpu = await detectWebGPU();
 * if (!gpu.supported) showMessage(gpu.reason);
 * const model = defaultModel('ghostText', { shaderF16: gpu.shaderF16 });
 */
export async function detectWebGPU(options: DetectWebGPUOptions = {}): Promise<WebGPUSupport> {
  let gpu: GPULike | null | undefined;
  try {
    gpu = options.gpu !== undefined ? options.gpu : (globalThis as { navigator?: { gpu?: GPULike } }).navigator?.gpu;
  } catch (error) {
    return unsupported(`reading navigator.gpu failed (${describe(error)}).`);
  }
  if (!gpu) {
    return unsupported(NO_WEBGPU);
  }
  let adapter: GPUAdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  } catch (error) {
    return unsupported(`asking for a GPU adapter failed (${describe(error)}).`);
  }
  if (!adapter) {
    return unsupported('no GPU adapter was found: the GPU may be blocklisted, or WebGPU is turned off in the browser settings.');
  }
  try {
    const info = adapter.info ?? (await adapter.requestAdapterInfo?.()) ?? {};
    return {
      supported: true,
      reason: null,
      adapter: {
        vendor: info.vendor ?? '',
        architecture: info.architecture ?? '',
        device: info.device ?? '',
        description: info.description ?? '',
        // Either shape says so: `info.isFallbackAdapter` (Chromium 156 on) or the adapter's own, older field.
        isFallbackAdapter: info.isFallbackAdapter === true || adapter.isFallbackAdapter === true,
      },
      shaderF16: adapter.features.has('shader-f16'),
      limits: {
        maxBufferSize: limit(adapter, 'maxBufferSize'),
        maxStorageBufferBindingSize: limit(adapter, 'maxStorageBufferBindingSize'),
        maxComputeWorkgroupStorageSize: limit(adapter, 'maxComputeWorkgroupStorageSize'),
        maxComputeInvocationsPerWorkgroup: limit(adapter, 'maxComputeInvocationsPerWorkgroup'),
      },
    };
  } catch (error) {
    return unsupported(`reading the GPU adapter failed (${describe(error)}).`);
  }
}

function unsupported(reason: string): WebGPUSupport {
  return { supported: false, reason, adapter: null, shaderF16: false, limits: null };
}

function limit(adapter: GPUAdapterLike, name: string): number {
  const value = adapter.limits[name];
  return typeof value === 'number' ? value : 0;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
