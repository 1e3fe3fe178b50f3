import { describe, expect, it } from 'vitest';
import { createGpuPick, packFixups } from '../src/worker/gpuPick.js';
import { webllmSources } from './fakeLanePipeline.js';

const flatSource = (version: keyof typeof webllmSources) => webllmSources[version].replaceAll(/\s+/g, ' ');

/** A WebGPU device that records the pick's binding, its parameters and its dispatches. */
function fakeDevice() {
  const submitted = { bindings: [] as unknown[], params: new Uint32Array(), dispatches: [] as number[] };
  let params: unknown;
  const buffer = (size: number) => {
    const b = { size, mapAsync: () => new Promise<void>(() => {}), getMappedRange: () => new ArrayBuffer(size), unmap() {}, destroy() {} };
    if (size === 16 && params === undefined) params = b;
    return b;
  };
  const device = {
    createBuffer: ({ size }: { size: number }) => buffer(size),
    createShaderModule: () => ({}),
    createComputePipeline: () => ({}),
    createBindGroupLayout: () => ({}),
    createPipelineLayout: () => ({}),
    createBindGroup: ({ entries }: { entries: unknown[] }) => {
      submitted.bindings = entries;
      return {};
    },
    createCommandEncoder: () => ({
      beginComputePass: () => ({
        setPipeline() {},
        setBindGroup() {},
        dispatchWorkgroups: (x: number) => submitted.dispatches.push(x),
        end() {},
      }),
      copyBufferToBuffer() {},
      finish: () => ({}),
    }),
    queue: {
      writeBuffer: (target: unknown, _offset: number, data: Uint32Array) => {
        if (target === params) submitted.params = Uint32Array.from(data);
      },
      submit() {},
    },
  };
  return { device, submitted };
}

describe('the GPU pick', () => {
  it("finds what it reads of TVM's runtime in WebLLM 0.2.79's and 0.2.86's real sources", () => {
    for (const source of Object.values(webllmSources)) {
      const flat = source.replaceAll(/\s+/g, ' ');
      // Instance.lib.webGPUContext, its device and buffer table; a tensor's pointer and dtype.
      expect(flat).toContain('this.lib.webGPUContext = webGPUContext');
      expect(flat).toMatch(/class WebGPUContext \{ constructor\(memory, device\) \{[^}]*this\.device = device/);
      expect(flat).toContain('gpuBufferFromPtr(ptr) {');
      expect(flat).toContain('getDataPtr() {');
    }
  });

  it("never reads a tensor's byteOffset: 0.2.79's runtime reads it from the padding before the field", () => {
    // 0.2.79: right after `strides` (a 4-byte pointer), where the 8-byte field is not; 0.2.86 rounds up to 8.
    expect(flatSource('0.2.79')).toContain('const arrayOffsetByteOffset = arrayOffsetStrides + this.lib.sizeofPtr();');
    expect(flatSource('0.2.86')).toMatch(/const arrayOffsetByteOffset = Math\.ceil\(byteOffsetUnaligned \/ 8/);
    const { device, submitted } = fakeDevice();
    const gpu = createGpuPick({ lib: { webGPUContext: { device, gpuBufferFromPtr: (ptr: number) => ({ ptr, size: 4096 }) } } }, 4);
    if (typeof gpu === 'string') throw new Error(gpu);
    // The garbage 0.2.79 showed on an H100 (not a multiple of 4) no longer matters: the tensor is the lanes' own copy.
    const tensor = { shape: [2, 1, 100], dtype: 'float32', byteOffset: 30, getDataPtr: () => 7 };
    void gpu.pick(tensor, 2, []);
    expect(submitted.bindings[0]).toEqual({ binding: 0, resource: { buffer: { ptr: 7, size: 4096 } } });
    expect([...submitted.params]).toEqual([2, 100, 0, 0]);
    expect(submitted.dispatches).toEqual([2]);
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
