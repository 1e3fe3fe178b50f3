import { EngineCrashedError, InklingError } from '@inkling/scheduler';
import { encodeError as toWire } from '@inkling/scheduler/engine';
import { describe, expect, it } from 'vitest';
import {
  GPUDeviceLostError,
  LoadCancelledError,
  ModelFetchError,
  ModelUnreadableError,
  OutOfMemoryError,
  WorkerCrashedError,
} from '../src/index.js';
import { isWorkerMessage } from '../src/protocol.js';
import { fromWire } from '../src/wireError.js';

describe("the worker protocol's errors and messages", () => {
  it.each([
    ['OutOfMemoryError', () => new OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: 'Tiny', vramRequiredMB: 300 })],
    ['ModelUnreadableError', () => new ModelUnreadableError('Cannot read it.', { device: 'gpu', model: 'Tiny' })],
    ['LoadCancelledError', () => new LoadCancelledError('Cancelled.', { device: 'gpu', model: 'Tiny' })],
    ['WorkerCrashedError', () => new WorkerCrashedError('Gone.', { device: 'gpu' })],
  ])("brings the scheduler's %s back from the worker as that one class, on the GPU", (_name, make) => {
    const error = make();
    const back = fromWire(structuredClone(toWire(error)));
    expect(back).toBeInstanceOf(error.constructor);
    expect(back).toMatchObject({ ...error, name: error.name, message: error.message, device: 'gpu' });
  });

  it("keeps an error's name across, whether WebLLM threw an Error or a string", () => {
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

  it('brings a typed error back as its class, with the words, fields and cause the worker gave it', () => {
    const fetchFailed = Object.assign(new Error('Failed to fetch'), { name: 'TypeError' });
    const error = new ModelFetchError('fetching http://127.0.0.1:8000/params.bin failed (TypeError: Failed to fetch)', {
      device: 'gpu',
      model: 'Tiny-q4f32_1',
      url: 'http://127.0.0.1:8000/params.bin',
      cause: fetchFailed,
    });
    const back = fromWire(structuredClone(toWire(error)));
    expect(back).toBeInstanceOf(ModelFetchError);
    expect(back).toBeInstanceOf(InklingError);
    expect([back.name, back.message]).toEqual([error.name, error.message]);
    expect(back).toMatchObject({ model: 'Tiny-q4f32_1', url: 'http://127.0.0.1:8000/params.bin', device: 'gpu', kind: 'network' });
    expect(back.cause).toBeInstanceOf(Error);
    expect(back.cause).toMatchObject({ name: 'TypeError', message: 'Failed to fetch' });
    const lost = fromWire(structuredClone(toWire(new GPUDeviceLostError('The WebGPU device was lost.'))));
    expect(lost).toBeInstanceOf(GPUDeviceLostError);
    expect(lost).toBeInstanceOf(EngineCrashedError);
    expect((lost as GPUDeviceLostError).fatal).toBe(true);
    const circular = new Error('its own cause');
    circular.cause = circular;
    expect(toWire(circular).cause?.cause?.cause?.cause).toBeUndefined();
  });

  it("tells its own messages from WebLLM's { kind, uuid } protocol", () => {
    expect(isWorkerMessage({ t: 'chunk', rid: 3, chunk: {} })).toBe(true);
    expect(isWorkerMessage({ t: 'reply', rid: 3 })).toBe(true);
    expect(isWorkerMessage({ t: 'progress', rid: 1, report: {} })).toBe(true);
    expect(isWorkerMessage({ type: 'hello', id: 0, protocol: 'inkling-webllm/3' })).toBe(true);
    expect(isWorkerMessage({ kind: 'return', uuid: 'x', content: null })).toBe(false);
    expect(isWorkerMessage(null)).toBe(false);
  });
});
