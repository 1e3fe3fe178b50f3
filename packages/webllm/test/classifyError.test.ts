import { describe, expect, it } from 'vitest';
import { classifyLoadError } from '../src/worker/classifyError.js';
import { ShaderF16UnsupportedError } from '../src/index.js';

describe('classifyLoadError', () => {
  it("reads WebLLM's class names that have digits in them, from a string as from an Error", () => {
    const text = 'ShaderF16SupportError: This model requires WebGPU extension shader-f16, which is not enabled in this browser.';
    const error = classifyLoadError(text, 'Tiny-q4f16_1', undefined);
    expect(error).toBeInstanceOf(ShaderF16UnsupportedError);
    expect((error as ShaderF16UnsupportedError).suggestion).toBe('Tiny-q4f32_1');
  });
});
