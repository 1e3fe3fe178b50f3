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
    const gpu = new OutOfMemoryError({ device: 'gpu', model: 'Qwen', vramRequiredMB: 1800.4 });
    const cpu = new OutOfMemoryError({ device: 'cpu', model: 'tiny.gguf' });
    expect([gpu.kind, gpu.device, gpu.phase, cpu.kind, cpu.device]).toEqual(['out-of-memory', 'gpu', 'load', 'out-of-memory', 'cpu']);
    expect(gpu.message).toMatch(/^The GPU ran out of memory loading "Qwen" \(it needs about 1800 MB/);
    expect(cpu.message).not.toMatch(/GPU/);
    expect(gpu).toBeInstanceOf(app.EngineLoadError);
  });

  it('makes a 404 model-not-found and not retryable, a dropped connection network and retryable', () => {
    const gone = new ModelFetchError({ device: 'cpu', model: 'm', url: 'https://x.test/m.gguf', status: 404 });
    const offline = new ModelFetchError({ device: 'gpu', model: 'm', url: 'https://x.test/m' });
    expect([gone.kind, gone.retryable, gone.status]).toEqual(['model-not-found', false, 404]);
    expect([offline.kind, offline.retryable, offline.status]).toEqual(['network', true, 0]);
    expect(offline.message).toMatch(/nothing answered/);
    expect(new ModelFetchError({ device: 'cpu', model: 'm', url: 'u', cut: true }).message).toMatch(/cut off/);
  });

  it('keeps what is specific to the engine in its advice and the cause underneath', () => {
    const cause = new Error('invalid magic');
    const error = new ModelUnreadableError({ device: 'cpu', model: 'm.gguf', detail: 'invalid magic', advice: 'Use a GGUF file.', cause });
    expect([error.kind, error.retryable, error.cause]).toEqual(['file-unreadable', false, cause]);
    expect(error.message).toBe('The model "m.gguf" could not be loaded (invalid magic). Use a GGUF file.');
    expect(new LoadCancelledError({ device: 'browser', model: 'Translator' })).toMatchObject({
      kind: 'cancelled',
      retryable: true,
      device: 'browser',
    });
  });

  it('makes a crashed worker fatal wherever it ran', () => {
    const error = new WorkerCrashedError('The worker died.', { device: 'cpu' });
    expect(app.isFatalEngineError(error)).toBe(true);
    expect([error.kind, error.device, error.phase]).toEqual(['crashed', 'cpu', 'run']);
  });

  it('crosses a worker boundary as its class with its device and fields', () => {
    const classes = { LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError };
    const sent = [
      new OutOfMemoryError({ device: 'gpu', model: 'Qwen', vramRequiredMB: 900 }),
      new ModelFetchError({ device: 'cpu', model: 'm', url: 'https://x.test/m.gguf', status: 503 }),
      new WorkerCrashedError('gone', { device: 'cpu' }),
    ];
    for (const error of sent) {
      const back = engine.decodeError(structuredClone(engine.encodeError(error)), classes);
      expect(back).toBeInstanceOf(error.constructor);
      expect(back).toMatchObject({
        name: error.name,
        message: error.message,
        device: error.device,
        kind: error.kind,
        retryable: error.retryable,
      });
    }
  });
});
