import { describe, expect, it } from 'vitest';
import { defaultModel, f32Variant, findModel, modelCatalogue, needsShaderF16 } from '../src/index.js';
import { resolveAppConfig } from '../src/resolveAppConfig.js';

describe('the model catalogue', () => {
  it('picks an f16 build only for an adapter with shader-f16', () => {
    expect(defaultModel('ghostText', { shaderF16: true })).toBe('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
    expect(defaultModel('ghostText')).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(findModel(defaultModel('embeddings'))?.kind).toBe('embedding');
    expect(findModel(defaultModel('translation'))?.kind).toBe('llm');
  });

  it('lists size and f16 need for every model, and an f32 build for every f16 one', () => {
    for (const model of modelCatalogue) {
      expect(model.vramRequiredMB).toBeGreaterThan(0);
      expect(model.shaderF16).toBe(/q\df16/.test(model.id));
    }
    const f16 = modelCatalogue.filter((m) => m.shaderF16);
    expect(f16.map((m) => findModel(f32Variant(m.id))?.shaderF16)).toEqual(f16.map(() => false));
  });

  it("matches WebLLM's prebuilt records (ids and sizes)", async () => {
    const { prebuiltAppConfig } = await import('@mlc-ai/web-llm');
    for (const model of modelCatalogue) {
      const record = prebuiltAppConfig.model_list.find((r) => r.model_id === model.id);
      expect({ id: model.id, vram: record?.vram_required_MB, embedding: record?.model_type === 1 }).toEqual({
        id: model.id,
        vram: model.vramRequiredMB,
        embedding: model.kind === 'embedding',
      });
    }
  });

  it('knows f16 models whose WebLLM record omits the feature', () => {
    expect(needsShaderF16({ model_id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', model_lib: 'x.wasm' })).toBe(true);
    expect(needsShaderF16({ model_id: 'my-model', model_lib: 'https://x/Qwen2-0.5B-Instruct-q4f16_1-ctx4k_cs1k-webgpu.wasm' })).toBe(true);
    expect(needsShaderF16({ model_id: 'my-model', model_lib: 'lib.wasm', required_features: ['shader-f16'] })).toBe(true);
    expect(needsShaderF16({ model_id: 'SmolLM2-360M-Instruct-q4f32_1-MLC', model_lib: 'x.wasm' })).toBe(false);
  });
});

describe('resolveAppConfig', () => {
  it('writes the cache backend both ways, whichever way it was given', () => {
    expect(resolveAppConfig({ model_list: [] })).toMatchObject({ cacheBackend: 'cache', useIndexedDBCache: false });
    expect(resolveAppConfig({ model_list: [], useIndexedDBCache: true })).toMatchObject({
      cacheBackend: 'indexeddb',
      useIndexedDBCache: true,
    });
    expect(resolveAppConfig({ model_list: [], cacheBackend: 'indexeddb' })).toMatchObject({ useIndexedDBCache: true });
    expect(resolveAppConfig({ model_list: [], cacheBackend: 'indexeddb' }, 'cache')).toMatchObject({
      cacheBackend: 'cache',
      useIndexedDBCache: false,
    });
  });
});
