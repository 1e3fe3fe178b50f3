import { describe, expect, it } from 'vitest';
import { classifyLoadError } from '../src/worker/classifyError.js';
import { ModelFetchError, ModelUnreadableError, ShaderF16UnsupportedError, type WebLLMModelRecord } from '../src/index.js';

const RECORD: WebLLMModelRecord = {
  model: 'https://huggingface.co/mlc-ai/Tiny-q4f16_1-MLC',
  model_id: 'Tiny-q4f16_1',
  model_lib: 'https://example.test/Tiny.wasm',
};

describe('classifyLoadError', () => {
  it("reads WebLLM's class names that have digits in them, from a string as from an Error", () => {
    const text = 'ShaderF16SupportError: This model requires WebGPU extension shader-f16, which is not enabled in this browser.';
    const error = classifyLoadError(text, 'Tiny-q4f16_1', undefined);
    expect(error).toBeInstanceOf(ShaderF16UnsupportedError);
    expect((error as ShaderF16UnsupportedError).suggestion).toBe('Tiny-q4f32_1');
  });

  it.each([
    ['Chrome', new TypeError('Failed to fetch')],
    ['Firefox', new TypeError('NetworkError when attempting to fetch resource.')],
    ['Safari', new TypeError('Load failed')],
    ['a wrapper around it', new Error('Error while fetching the weights', { cause: new TypeError('Failed to fetch') })],
    ['a string', 'TypeError: Failed to fetch'],
  ])('a network failure mid-download (%s) is a network error to retry, not a stored file to delete', (_who, reason) => {
    const error = classifyLoadError(reason, 'Tiny-q4f16_1', RECORD);
    expect(error).toBeInstanceOf(ModelFetchError);
    expect(error).toMatchObject({ kind: 'network', retryable: true, device: 'gpu', url: RECORD.model });
    expect(error.message).toMatch(/fetching https:\/\/huggingface\.co\/mlc-ai\/Tiny-q4f16_1-MLC failed/);
    expect(error.message).toMatch(/reachable/);
    expect(error.message).not.toMatch(/clear its cache|deleteModel/);
  });

  it('a file that arrived but cannot be read stays file-unreadable', () => {
    const error = classifyLoadError(new RangeError('Invalid typed array length: 4096'), 'Tiny-q4f16_1', RECORD);
    expect(error).toBeInstanceOf(ModelUnreadableError);
    expect(error).not.toBeInstanceOf(ModelFetchError);
    expect(error).toMatchObject({ kind: 'file-unreadable', retryable: false, device: 'gpu', model: 'Tiny-q4f16_1' });
    expect(error.message).toMatch(/deleteModel\("Tiny-q4f16_1"\)/);
  });
});
