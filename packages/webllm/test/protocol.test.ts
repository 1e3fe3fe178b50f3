import { describe, expect, it } from 'vitest';
import { fromWire, isWorkerMessage, toWire } from '../src/protocol.js';

describe("the worker protocol's errors and messages", () => {
  it('keeps an error\'s name across, whether WebLLM threw an Error or a string', () => {
    const thrown = Object.assign(new Error('The WebGPU device was lost.'), { name: 'DeviceLostError' });
    expect(toWire(thrown)).toEqual({ name: 'DeviceLostError', message: 'The WebGPU device was lost.' });
    expect(toWire('ShaderF16SupportError: This model requires shader-f16.')).toEqual({
      name: 'ShaderF16SupportError',
      message: 'This model requires shader-f16.',
    });
    expect(toWire(42)).toEqual({ name: 'Error', message: '42' });
    const back = fromWire(structuredClone(toWire(thrown)));
    expect(back).toBeInstanceOf(Error);
    expect([back.name, back.message]).toEqual(['DeviceLostError', 'The WebGPU device was lost.']);
  });

  it("tells its own messages from WebLLM's { kind, uuid } protocol", () => {
    expect(isWorkerMessage({ type: 'chunk', id: 3, chunk: {} })).toBe(true);
    expect(isWorkerMessage({ kind: 'return', uuid: 'x', content: null })).toBe(false);
    expect(isWorkerMessage(null)).toBe(false);
  });
});
