import type { CreateEngine } from '@inkling/scheduler';
import { describe, expect, it, vi } from 'vitest';
import { chooseEngineKind, chooseEngines, cpuModelCatalogue, defaultCpuModel } from '../src/index.js';

const gpu = { supported: true, reason: null, adapter: { isFallbackAdapter: false, description: 'Some GPU' } };

describe('chooseEngineKind', () => {
  it('takes WebGPU with a real adapter', () => {
    expect(chooseEngineKind(gpu)).toMatchObject({ kind: 'webgpu', reason: expect.stringContaining('Some GPU') });
  });

  it('takes the CPU without WebGPU, saying why', () => {
    const choice = chooseEngineKind({ supported: false, reason: 'this browser has no WebGPU.', adapter: null });
    expect(choice).toMatchObject({ kind: 'cpu', reason: expect.stringContaining('this browser has no WebGPU') });
  });

  it('takes the CPU over a software fallback adapter, unless allowed', () => {
    const fallback = { ...gpu, adapter: { isFallbackAdapter: true } };
    expect(chooseEngineKind(fallback).kind).toBe('cpu');
    expect(chooseEngineKind(fallback, { allowFallbackAdapter: true }).kind).toBe('webgpu');
  });
});

describe('chooseEngines', () => {
  it('builds only the chosen engines', () => {
    const webgpuEngines = (async () => ({})) as unknown as CreateEngine;
    const cpuEngines = (async () => ({})) as unknown as CreateEngine;
    const webgpu = vi.fn(() => webgpuEngines);
    const cpu = vi.fn(() => cpuEngines);
    expect(chooseEngines({ probe: { supported: false }, webgpu, cpu }).createEngine).toBe(cpuEngines);
    expect(webgpu).not.toHaveBeenCalled();
    expect(chooseEngines({ probe: gpu, webgpu, cpu })).toMatchObject({ kind: 'webgpu', createEngine: webgpuEngines });
    expect(cpu).toHaveBeenCalledTimes(1);
  });
});

describe('cpuModelCatalogue', () => {
  it('lists GGUF URLs on a public host with sizes, and a default per feature of the right kind', () => {
    for (const model of cpuModelCatalogue) {
      expect(model.url).toMatch(/^https:\/\/huggingface\.co\/[^/]+\/[^/]+\/resolve\/main\/[^/]+\.gguf$/);
      expect(model.sizeMB).toBeGreaterThan(0);
    }
    expect(defaultCpuModel().kind).toBe('llm');
    expect(defaultCpuModel('translation').multilingual).toBe(true);
    expect(defaultCpuModel('embeddings').kind).toBe('embedding');
    expect(defaultCpuModel('ghostText').sizeMB).toBeLessThan(500);
  });
});
