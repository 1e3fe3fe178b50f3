// @vitest-environment node
import { describe, expect, it } from 'vitest';
import * as app from '../src/index.js';
import * as engine from '../src/engine.js';

const { LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError } = app;

describe('one error class per kind of failure', () => {
  it('is the same class object behind the app and engine doors', () => {
    expect([
      engine.LoadCancelledError,
      engine.ModelFetchError,
      engine.ModelUnreadableError,
      engine.OutOfMemoryError,
      engine.WorkerCrashedError,
    ]).toEqual([LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError]);
    expect(engine.OutOfMemoryError).toBe(OutOfMemoryError);
  });

  it('tells a GPU and a CPU out of memory apart by device, not by class', () => {
    const gpu = new OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: 'Qwen', vramRequiredMB: 1800 });
    const cpu = new OutOfMemoryError('It ran out of memory.', { device: 'cpu', model: 'tiny.gguf' });
    expect([gpu.kind, gpu.device, gpu.phase, gpu.model, gpu.vramRequiredMB]).toEqual(['out-of-memory', 'gpu', 'load', 'Qwen', 1800]);
    expect([cpu.kind, cpu.device, cpu.model, cpu.message]).toEqual(['out-of-memory', 'cpu', 'tiny.gguf', 'It ran out of memory.']);
    expect(cpu.constructor).toBe(gpu.constructor);
    expect(gpu).toBeInstanceOf(app.EngineLoadError);
    expect(app.InklingError.isInstance(cpu)).toBe(true);
  });

  it('makes a 404 model-not-found and not retryable, nothing answering network and retryable', () => {
    const gone = new ModelFetchError('gone', { device: 'cpu', model: 'm', url: 'https://x.test/m.gguf', status: 404 });
    const offline = new ModelFetchError('offline', { device: 'gpu', model: 'm', url: 'https://x.test/m' });
    expect([gone.kind, gone.retryable, gone.status, gone.url]).toEqual(['model-not-found', false, 404, 'https://x.test/m.gguf']);
    expect([offline.kind, offline.retryable, offline.status]).toEqual(['network', true, 0]);
    expect(new ModelFetchError('busy', { device: 'cpu', model: 'm', url: 'u', status: 503 })).toMatchObject({
      kind: 'network',
      retryable: true,
    });
  });

  it('keeps the cause underneath, and leaves none where there was none', () => {
    const cause = new Error('invalid magic');
    const error = new ModelUnreadableError('not a GGUF', { device: 'cpu', model: 'm.gguf', cause });
    expect([error.kind, error.retryable, error.cause]).toEqual(['file-unreadable', false, cause]);
    expect('cause' in new LoadCancelledError('stopped', { device: 'browser', model: 'the en→fr translator' })).toBe(false);
    expect(new LoadCancelledError('stopped', { device: 'browser', model: 'x' })).toMatchObject({
      kind: 'cancelled',
      retryable: true,
      device: 'browser',
    });
  });

  it('sets every detail but the cause as an own field (what crosses a wire), the cause only when given', () => {
    const fetch = new ModelFetchError('down', { device: 'cpu', model: 'm', url: 'u', cause: undefined });
    expect(Object.keys(fetch)).toEqual(expect.arrayContaining(['kind', 'retryable', 'device', 'model', 'url', 'status']));
    expect(['cause' in fetch, 'cause' in new WorkerCrashedError('gone', { device: 'gpu', cause: undefined })]).toEqual([false, false]);
    expect(new WorkerCrashedError('gone', { device: 'gpu', cause: 'lost' }).cause).toBe('lost');
    expect(Object.keys(new OutOfMemoryError('oom', { device: 'gpu', model: 'Qwen' }))).not.toContain('cause');
  });

  it('makes a crashed worker fatal wherever it ran', () => {
    const error = new WorkerCrashedError('The worker died.', { device: 'cpu' });
    expect(engine.isFatalEngineError(error)).toBe(true);
    expect([error.kind, error.device, error.phase, error.retryable]).toEqual(['crashed', 'cpu', 'run', true]);
  });

  it('crosses a worker boundary as its class with its device and fields', () => {
    const classes = { LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError };
    const sent = [
      new OutOfMemoryError('oom', { device: 'gpu', model: 'Qwen', vramRequiredMB: 900 }),
      new ModelFetchError('down', { device: 'cpu', model: 'm', url: 'https://x.test/m.gguf', status: 503 }),
      new WorkerCrashedError('gone', { device: 'cpu' }),
    ];
    for (const error of sent) {
      const back = engine.decodeError(structuredClone(engine.encodeError(error)), classes);
      expect(back).toBeInstanceOf(error.constructor);
      expect(back).toMatchObject({ ...error, name: error.name, message: error.message });
    }
  });
});
