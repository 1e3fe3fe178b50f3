import { InvalidOptionError } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { wllamaEngines } from '../src/index.js';

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

  it('takes no options object with a sentence that shows one', () => {
    expect(() => wllamaEngines(undefined as never)).toThrow(/takes an options object/);
  });
});
