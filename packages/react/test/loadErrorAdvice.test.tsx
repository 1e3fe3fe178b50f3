import { openaiEngines, ServerModelNotFoundError, ServerUnreachableError } from '@inkling/openai';
import { EnginePool } from '@inkling/scheduler';
import { encodeError } from '@inkling/scheduler/engine';
import { decodeError } from '@inkling/shared-pool';
import * as webllm from '@inkling/webllm';
import * as wllama from '@inkling/wllama';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadErrorAdvice } from '../src/core.js';
import { ModelLoadProgress } from '../src/index.js';
import { describeEachReactMode, renderWithPool, settle } from './utils.js';

// Every engine's load failures, built with each adapter's own classes, and
// the advice a person gets for them: chosen by kind and device, so the same
// kind reads the same on every engine and a CPU is never told about its GPU.

const MODEL = 'tiny-model';
const MODEL_URL = 'https://models.example/tiny.gguf';

type Case = readonly [kind: string, error: () => Error, advice: RegExp];

const ENGINES: Record<string, readonly Case[]> = {
  webllm: [
    ['no device', () => new webllm.WebGPUUnavailableError('navigator.gpu is missing.'), /no WebGPU.*Chrome or Edge 113/],
    [
      'out of memory',
      () => new webllm.OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: MODEL, vramRequiredMB: 1800 }),
      /^The GPU ran out of memory.*smaller model/,
    ],
    ['model not found', () => new webllm.ModelNotFoundError('No such model.', { model: MODEL }), /no model with this id.*model list/],
    [
      'file unreadable',
      () => new webllm.ModelUnreadableError('Error: tensor shape mismatch', { device: 'gpu', model: MODEL }),
      /cannot be read.*download it again/,
    ],
    [
      'network',
      () => new webllm.ModelFetchError('TypeError: Failed to fetch', { device: 'gpu', model: MODEL, url: MODEL_URL }),
      /could not be downloaded.*network.*CORS/,
    ],
    ['cancelled', () => new webllm.LoadCancelledError('Cancelled.', { device: 'gpu', model: MODEL }), /Loading was cancelled/],
  ],
  wllama: [
    ['no device', () => new wllama.WasmUnsupportedError(), /WebAssembly lacks 64-bit memory.*Chrome or Edge 133/],
    [
      'out of memory',
      () => new wllama.OutOfMemoryError('Out of memory.', { device: 'cpu', model: MODEL }),
      /ran out of memory.*smaller model/,
    ],
    [
      'model not found',
      () => new wllama.ModelFetchError('HTTP 404', { device: 'cpu', model: MODEL_URL, url: MODEL_URL, status: 404 }),
      /no model with this id or at this address/,
    ],
    [
      'file unreadable',
      () => new wllama.ModelUnreadableError('failed to read magic', { device: 'cpu', model: MODEL }),
      /cannot be read.*download it again/,
    ],
    [
      'network',
      () => new wllama.ModelFetchError('Nothing answered.', { device: 'cpu', model: MODEL_URL, url: MODEL_URL }),
      /could not be downloaded.*network.*CORS/,
    ],
    ['cancelled', () => new wllama.LoadCancelledError('Cancelled.', { device: 'cpu', model: MODEL }), /Loading was cancelled/],
  ],
  // A server has no device of the page's to miss or to fill, and no file for the page to read.
  openai: [
    ['model not found', () => new ServerModelNotFoundError('The server has no model "tiny".', 404), /server has no model by this name/],
    ['network', () => new ServerUnreachableError('Nothing answered at http://127.0.0.1:1/v1.'), /model server could not be reached/],
  ],
};

/** A network with nothing on it. */
const refuseEveryFetch = () => Promise.reject(new TypeError('Failed to fetch'));

/** The same error as a client of the shared pool receives it: across the port, its class not registered there. */
const acrossSharedPool = (error: Error): Error => decodeError(structuredClone(encodeError(error)));

describe('loadErrorAdvice', () => {
  const cases = Object.entries(ENGINES).flatMap(([engine, list]) =>
    list.map(([kind, make, advice]) => [engine, kind, make, advice] as const),
  );
  it.each(cases)('%s: %s', (_engine, _kind, make, advice) => {
    expect(loadErrorAdvice(make())).toMatch(advice);
    // Across the shared pool: its own class where the pool knows it, else an InklingError; kind and device cross with it.
    expect(loadErrorAdvice(acrossSharedPool(make()))).toMatch(advice);
  });

  it('never tells a CPU engine, or a shared pool of one, that the GPU ran out of memory', () => {
    for (const error of [
      new wllama.OutOfMemoryError('Out of memory.', { device: 'cpu', model: MODEL }),
      acrossSharedPool(new wllama.OutOfMemoryError('Out of memory.', { device: 'cpu', model: MODEL })),
    ]) {
      expect(loadErrorAdvice(error)).not.toMatch(/GPU/);
    }
  });

  it('gives an unparsable GGUF advice about the file, not about downloads or CORS', () => {
    expect(loadErrorAdvice(new wllama.ModelUnreadableError('invalid magic', { device: 'cpu', model: 'tiny.gguf' }))).not.toMatch(
      /could not be downloaded|network|CORS/i,
    );
  });

  it('reads a WebLLM and a wllama out of memory as one class told apart by device, before and after the shared pool', () => {
    expect(webllm.OutOfMemoryError).toBe(wllama.OutOfMemoryError);
    const gpu = new webllm.OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: MODEL });
    const cpu = new wllama.OutOfMemoryError('Out of memory.', { device: 'cpu', model: MODEL });
    const pairs: ReadonlyArray<readonly [Error, Error]> = [
      [gpu, cpu],
      [acrossSharedPool(gpu), acrossSharedPool(cpu)],
    ];
    for (const [a, b] of pairs) {
      expect(a).toBeInstanceOf(wllama.OutOfMemoryError);
      expect(b).toBeInstanceOf(webllm.OutOfMemoryError);
      expect([(a as webllm.OutOfMemoryError).device, (b as wllama.OutOfMemoryError).device]).toEqual(['gpu', 'cpu']);
      expect(loadErrorAdvice(a)).toMatch(/GPU/);
      expect(loadErrorAdvice(b)).not.toMatch(/GPU/);
    }
  });

  it("reads a wrapped error's cause, and the platform's full-storage error", () => {
    const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    expect(loadErrorAdvice(new Error('wrapped', { cause: quota }))).toMatch(/not enough storage/);
    expect(loadErrorAdvice(Object.assign(new Error('shaped like a class name only'), { name: 'OutOfMemoryError' }))).toBe(
      'shaped like a class name only',
    );
  });
});

describeEachReactMode('ModelLoadProgress on each engine', (mode) => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    [
      'webllm',
      () => new webllm.OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: MODEL, vramRequiredMB: 1800 }),
      /The GPU ran out of memory/,
    ],
    ['wllama', () => new wllama.OutOfMemoryError('Out of memory.', { device: 'cpu', model: MODEL }), /did not fit in the memory/],
    ['wllama', () => new wllama.ModelUnreadableError('invalid magic', { device: 'cpu', model: 'tiny.gguf' }), /cannot be read/],
    [
      'shared pool of wllama',
      () => acrossSharedPool(new wllama.ModelFetchError('Nothing answered.', { device: 'cpu', model: MODEL_URL, url: MODEL_URL })),
      /could not be downloaded/,
    ],
  ])('shows the advice for a failed %s load', async (_engine, make, advice) => {
    renderWithPool(<ModelLoadProgress />, new EnginePool({ createEngine: () => Promise.reject(make()), size: 1 }), mode);
    await settle();
    expect(screen.getByRole('alert').textContent).toMatch(advice);
  });

  it('shows the advice for an openai server that does not answer, through its own engines', async () => {
    renderWithPool(
      <ModelLoadProgress />,
      new EnginePool({
        createEngine: openaiEngines({ baseURL: 'http://127.0.0.1:1/v1', model: 'tiny', fetch: refuseEveryFetch }),
        size: 1,
      }),
      mode,
    );
    await settle();
    expect(screen.getByRole('alert').textContent).toMatch(/model server could not be reached/);
  });
});
