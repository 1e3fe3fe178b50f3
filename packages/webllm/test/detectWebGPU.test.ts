import { describe, expect, it } from 'vitest';
import { detectWebGPU } from '../src/index.js';
import { fakeGpu } from './helpers.js';

/** A `navigator.gpu` whose one adapter has `shape`'s `info` and own fields. */
const adapter = (shape: { info?: Record<string, unknown>; isFallbackAdapter?: boolean }) => ({
  requestAdapter: async () => ({ features: new Set<string>(), limits: {}, ...shape }),
});

describe('detectWebGPU', () => {
  it('reports the adapter, shader-f16 and limits when there is one', async () => {
    const found = await detectWebGPU({ gpu: fakeGpu(['shader-f16']) });
    expect(found).toMatchObject({
      supported: true,
      reason: null,
      shaderF16: true,
      adapter: { vendor: 'fake-vendor', architecture: 'fake-arch', description: 'Fake GPU', isFallbackAdapter: false },
      limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 },
    });
  });

  it('says so without shader-f16', async () => {
    expect(await detectWebGPU({ gpu: fakeGpu() })).toMatchObject({ supported: true, shaderF16: false });
  });

  it('reads adapter info the older way where `info` is missing', async () => {
    const gpu = {
      requestAdapter: async () => ({
        features: new Set<string>(),
        limits: {},
        requestAdapterInfo: async () => ({ vendor: 'old-browser' }),
      }),
    };
    expect(await detectWebGPU({ gpu })).toMatchObject({
      supported: true,
      adapter: { vendor: 'old-browser' },
      limits: { maxBufferSize: 0 },
    });
  });

  describe('recognises a software adapter in either shape', () => {
    it.each([
      // Chromium 156 on: the flag is in `info`; the adapter has none of its own (SwiftShader says true).
      [
        'info.isFallbackAdapter (Chromium 156 on)',
        { info: { vendor: 'google', description: 'SwiftShader', isFallbackAdapter: true } },
        true,
      ],
      // Browsers before: the flag is on the adapter, and `info` lacks it.
      ['adapter.isFallbackAdapter (older browsers)', { info: { vendor: 'google' }, isFallbackAdapter: true }, true],
      ['a hardware adapter in the new shape', { info: { vendor: 'nvidia', isFallbackAdapter: false } }, false],
      ['a hardware adapter in the old shape', { info: { vendor: 'nvidia' }, isFallbackAdapter: false }, false],
      ['an adapter that says nothing', { info: {} }, false],
    ])('%s', async (_, shape, expected) => {
      expect(await detectWebGPU({ gpu: adapter(shape) })).toMatchObject({ supported: true, adapter: { isFallbackAdapter: expected } });
    });
    it('from requestAdapterInfo() too, where `info` is missing', async () => {
      const gpu = {
        requestAdapter: async () => ({
          features: new Set<string>(),
          limits: {},
          requestAdapterInfo: async () => ({ isFallbackAdapter: true }),
        }),
      };
      expect(await detectWebGPU({ gpu })).toMatchObject({ adapter: { isFallbackAdapter: true } });
    });
  });

  it('says why when there is no adapter', async () => {
    const found = await detectWebGPU({ gpu: { requestAdapter: async () => null } });
    expect(found).toEqual({
      supported: false,
      reason: expect.stringMatching(/no GPU adapter/),
      adapter: null,
      shaderF16: false,
      limits: null,
    });
  });

  it('says why when the browser has no WebGPU', async () => {
    expect(await detectWebGPU({ gpu: null })).toMatchObject({ supported: false, reason: expect.stringMatching(/navigator\.gpu/) });
  });

  it('looks at navigator.gpu when no gpu is given (absent in Node)', async () => {
    expect(await detectWebGPU()).toMatchObject({ supported: false });
  });

  it('never throws, whatever the adapter does', async () => {
    const throwing = { requestAdapter: async () => Promise.reject(new Error('GPU process crashed')) };
    expect(await detectWebGPU({ gpu: throwing })).toMatchObject({ supported: false, reason: expect.stringMatching(/GPU process crashed/) });
    const broken = {
      requestAdapter: async () => ({
        get features(): { has(name: string): boolean } {
          throw new Error('bad adapter');
        },
        limits: {},
      }),
    };
    expect(await detectWebGPU({ gpu: broken })).toMatchObject({ supported: false, reason: expect.stringMatching(/bad adapter/) });
  });
});
