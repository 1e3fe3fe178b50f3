import { describe, expect, it } from 'vitest';
import { createGpuPick, packFixups } from '../src/worker/gpuPick.js';
import { webllmSources } from './fakeLanePipeline.js';

describe('the GPU pick', () => {
  it("finds what it reads of TVM's runtime in WebLLM 0.2.79's and 0.2.86's real sources", () => {
    for (const source of Object.values(webllmSources)) {
      const flat = source.replaceAll(/\s+/g, ' ');
      // Instance.lib.webGPUContext, its device and buffer table; a tensor's pointer, offset and dtype.
      expect(flat).toContain('this.lib.webGPUContext = webGPUContext');
      expect(flat).toMatch(/class WebGPUContext \{ constructor\(memory, device\) \{[^}]*this\.device = device/);
      expect(flat).toContain('gpuBufferFromPtr(ptr) {');
      expect(flat).toContain('getDataPtr() {');
      expect(flat).toMatch(/this\.byteOffset = lib\.memory\.load[IU]64\(/);
    }
  });

  it("says why not where TVM's runtime shows no WebGPU device (the lanes then pick on the CPU)", () => {
    expect(createGpuPick({}, 4)).toMatch(/no WebGPU device/);
    expect(createGpuPick({ lib: { webGPUContext: { device: {} } } }, 4)).toMatch(/no WebGPU device/);
  });

  it("packs each fixup as the shader's struct: row, token, count as u32, then bias and the penalties as f32", () => {
    const words = packFixups([{ row: 2, token: 77, count: 3, bias: 1.5, repetition: 1.1, presence: 0.25, frequency: -2 }]);
    expect(words).toHaveLength(8);
    expect([...words.slice(0, 3)]).toEqual([2, 77, 3]);
    expect([...new Float32Array(words.buffer).slice(3, 7)]).toEqual([1.5, Math.fround(1.1), 0.25, -2]);
  });
});
