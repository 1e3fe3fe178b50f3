import { EngineError } from '@inkling/scheduler';
import { isFatalEngineError } from '@inkling/scheduler/engine';
import { describe, expect, it } from 'vitest';
import { classifyLoadError, classifyRunError } from '../src/classifyError.js';
import { ModelLoadError, OutOfMemoryError, WorkerCrashedError } from '../src/index.js';

const runtime = (message: string) => Object.assign(new Error(message), { name: 'RuntimeError' });

describe('classifying wllama errors', () => {
  it('a load that ran out of memory is an OutOfMemoryError; anything else a ModelLoadError, the original as cause', () => {
    const oom = new Error('Aborted(Cannot enlarge memory arrays)');
    expect(classifyLoadError(oom, 'm.gguf')).toBeInstanceOf(OutOfMemoryError);
    expect(classifyLoadError(oom, 'm.gguf')).toMatchObject({ device: 'cpu', model: 'm.gguf', kind: 'out-of-memory' });
    const bad = new Error('failed to load model: invalid magic');
    const error = classifyLoadError(bad, 'm.gguf');
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error).toMatchObject({ device: 'cpu', kind: 'file-unreadable' });
    expect(error.cause).toBe(bad);
    expect(error.message).toMatch(/invalid magic/);
  });

  it("a WebAssembly abort while running is fatal (the pool replaces the engine); llama.cpp refusing a request is the job's", () => {
    const crash = classifyRunError(runtime('(ABORT) out of memory'), 'm.gguf');
    expect(crash).toBeInstanceOf(WorkerCrashedError);
    expect(isFatalEngineError(crash)).toBe(true);
    expect(crash.device).toBe('cpu');
    expect(crash.message).toMatch(/ran out of memory/);
    const refused = classifyRunError(
      Object.assign(new Error('the request exceeds the available context size'), { type: 'inference_error' }),
      'm.gguf',
    );
    expect(refused).toBeInstanceOf(EngineError);
    expect(isFatalEngineError(refused)).toBe(false);
  });
});
