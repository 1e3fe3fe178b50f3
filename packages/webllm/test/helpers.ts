import type { ChatJobSpec } from '@inkling/scheduler';
import { vi } from 'vitest';
import type { GPULike, WebLLMAppConfig, WebLLMEnginesOptions } from '../src/index.js';
import { webllmEngines } from '../src/index.js';
import { type FakeWorkerOptions, fakeWorkers } from './fakeWorker.js';

const lib = (name: string) => `http://127.0.0.1:8000/libs/${name}-webgpu.wasm`;

/** Self-hosted test models, the way an app lists its own. */
export const appConfig: WebLLMAppConfig = {
  model_list: [
    { model: 'http://127.0.0.1:8000/models/Tiny-q4f32_1', model_id: 'Tiny-q4f32_1', model_lib: lib('Tiny-q4f32_1'), vram_required_MB: 300 },
    { model: 'http://127.0.0.1:8000/models/Tiny-q4f16_1', model_id: 'Tiny-q4f16_1', model_lib: lib('Tiny-q4f16_1') },
    { model: 'http://127.0.0.1:8000/models/Embed-q0f32', model_id: 'Embed-q0f32', model_lib: lib('Embed-q0f32'), model_type: 1 },
  ],
};

/** A `navigator.gpu` with one adapter offering `features`. */
export function fakeGpu(features: string[] = []): GPULike {
  return {
    requestAdapter: async () => ({
      features: new Set(features),
      limits: {
        maxBufferSize: 2 ** 31,
        maxStorageBufferBindingSize: 2 ** 30,
        maxComputeWorkgroupStorageSize: 32768,
        maxComputeInvocationsPerWorkgroup: 1024,
      },
      info: { vendor: 'fake-vendor', architecture: 'fake-arch', device: '', description: 'Fake GPU' },
      isFallbackAdapter: false,
    }),
  };
}

/**
 * `webllmEngines` over in-memory workers running the real `hostWebLLM` on a
 * fake WebLLM, whose WebGPU is an adapter without `shader-f16` unless
 * `worker.gpu` says otherwise.
 */
export function fakeWebLLM(worker: FakeWorkerOptions = {}, options: Partial<WebLLMEnginesOptions> = {}) {
  const workers = fakeWorkers({ reply: 'one two three four five six seven eight', tokenMs: 2, gpu: fakeGpu(), ...worker });
  // The page's WebGPU is a fake one too (Node has no navigator.gpu).
  const createEngine = webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: workers, gpu: fakeGpu(), ...options });
  return { createEngine, workers: workers.workers };
}

/** A chat job spec asking for `content`. */
export function chat(content: string, extra: Partial<ChatJobSpec> = {}): ChatJobSpec {
  return { params: { messages: [{ role: 'user', content }] }, ...extra };
}

/**
 * Puts the test on fake timers that jump to the next due timer whenever the
 * test awaits: the fake worker's message hops, load steps and token delays
 * take no wall time, and time only moves when something waits on it.
 * Call in `beforeEach`; `vi.useRealTimers()` in `afterEach` undoes it.
 */
export function useVirtualTime(): void {
  vi.useFakeTimers();
  vi.setTimerTickMode('nextTimerAsync');
}

/** Resolves once `check` holds, checking after each timer fires; fails after `ms` of (fake) time. */
export async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for a condition (${ms} ms of fake time)`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
