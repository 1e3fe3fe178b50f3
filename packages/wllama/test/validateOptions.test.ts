import { InvalidOptionError } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { type WllamaEnginesOptions, wllamaEngines } from '../src/index.js';

const ok = { model: 'https://example.test/m.gguf', wasmUrl: '/wllama.wasm' };

describe('wllamaEngines options', () => {
  it.each([
    [{ ...ok, model: 'https://example.test/m.bin' }, /"model" must be the URL of a \.gguf file/],
    [{ ...ok, model: undefined }, /"model"/],
    [{ ...ok, wasmUrl: '' }, /"wasmUrl"/],
    [{ ...ok, threads: 0 }, /"threads" must be a whole number from 1 to 64; it got 0/],
    [{ ...ok, contextSize: 10 }, /"contextSize"/],
    [{ ...ok, seed: 1.5 }, /"seed"/],
    [{ ...ok, pooling: 'max' }, /"pooling"/],
    [{ ...ok, fetchTimeoutMs: -1 }, /"fetchTimeoutMs" must be a number of milliseconds/],
    [{ ...ok, fetchTimeoutMs: 2 ** 31 }, /"fetchTimeoutMs"/],
    [{ ...ok, fetch: 'no' }, /"fetch" must be a function/],
    [{ ...ok, loadParams: null }, /"loadParams"/],
    [{ ...ok, promptCacheLimitMiB: 0 }, /"promptCacheLimitMiB" must be a number of MiB of at least 1, or Infinity/],
    [{ ...ok, promptCacheLimitMiB: Number.NaN }, /"promptCacheLimitMiB"/],
    [{ ...ok, promptCacheLimitMiB: '256' }, /"promptCacheLimitMiB"/],
  ])('throws InvalidOptionError naming the option: %o', (options, message) => {
    expect(() => wllamaEngines(options as never)).toThrow(InvalidOptionError);
    expect(() => wllamaEngines(options as never)).toThrow(message);
  });

  it('takes good options, Infinity for "never" included, and a model URL with a query', () => {
    expect(typeof wllamaEngines({ ...ok, fetchTimeoutMs: Number.POSITIVE_INFINITY, threads: 2, contextSize: 4096 })).toBe('function');
    expect(typeof wllamaEngines({ ...ok, model: 'https://example.test/m.gguf?download=true' })).toBe('function');
    expect(typeof wllamaEngines({ ...ok, promptCacheLimitMiB: Number.POSITIVE_INFINITY })).toBe('function');
    expect(typeof wllamaEngines({ ...ok, promptCacheLimitMiB: 64.5 })).toBe('function');
  });

  it('refuses an option it does not take, naming the near one', () => {
    expect(() => wllamaEngines({ ...ok, thread: 2 } as never)).toThrow(InvalidOptionError);
    expect(() => wllamaEngines({ ...ok, thread: 2 } as never)).toThrow(
      /^wllamaEngines\(\) has no option "thread" \(did you mean "threads"\?\): remove or rename it\. Its options: model, wasmUrl, .*, embeddings, verbose, timers\.$/,
    );
    expect(() => wllamaEngines({ ...ok, wasmURL: '/w.wasm' } as never)).toThrow('has no option "wasmURL" (did you mean "wasmUrl"?)');
  });

  it('takes every option it documents, and an unknown key left undefined', () => {
    const all: Required<WllamaEnginesOptions> = {
      ...ok,
      embeddings: false,
      pooling: 'mean',
      contextSize: 512,
      threads: 1,
      seed: 1,
      fetchTimeoutMs: 10,
      loadParams: {},
      fetch: async () => new Response(),
      verbose: false,
      storage: false,
      sizeBytes: 1,
      sha256: '0'.repeat(64),
      timers: { setTimeout, clearTimeout },
      promptCacheLimitMiB: 64,
    };
    expect(typeof wllamaEngines(all)).toBe('function');
    expect(typeof wllamaEngines({ ...ok, thread: undefined } as never)).toBe('function');
  });

  it('takes no options object with a sentence that shows one', () => {
    expect(() => wllamaEngines(undefined as never)).toThrow(/takes an options object/);
  });
});
