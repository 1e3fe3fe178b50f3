import { describe, expect, it } from 'vitest';
import { kvBytesPerToken } from '../src/kvBytesPerToken.js';

const tiny = {
  n_layer: 6,
  n_embd: 256,
  metadata: { 'general.architecture': 'llama', 'llama.attention.head_count': '4', 'llama.attention.head_count_kv': '4' },
};

describe('kvBytesPerToken', () => {
  it("is the generated test model's 6,144 bytes (llama.cpp: 12 MiB of KV for 2,048 cells)", () => {
    expect(kvBytesPerToken(tiny)).toBe(6144);
    expect(kvBytesPerToken(tiny) * 2048).toBe(12 * 1024 * 1024);
  });

  it('counts KV heads (grouped-query attention), explicit key/value lengths and the cache types', () => {
    // Qwen2-0.5B's shape: 24 layers, 896 wide, 14 heads, 2 KV heads of 64.
    const qwen = {
      n_layer: 24,
      n_embd: 896,
      metadata: { 'general.architecture': 'qwen2', 'qwen2.attention.head_count': '14', 'qwen2.attention.head_count_kv': '2' },
    };
    expect(kvBytesPerToken(qwen)).toBe(24 * 2 * 64 * 2 * 2);
    expect(kvBytesPerToken(qwen, { cache_type_k: 'q8_0', cache_type_v: 'f32' })).toBe(Math.ceil(24 * 128 * (34 / 32 + 4)));
    const keyed = { ...tiny, metadata: { ...tiny.metadata, 'llama.attention.key_length': '128', 'llama.attention.value_length': '32' } };
    expect(kvBytesPerToken(keyed)).toBe(6 * 4 * (128 + 32) * 2);
  });

  it('takes the full hidden width where the heads are missing or per layer (never below the real size)', () => {
    expect(kvBytesPerToken({ n_layer: 6, n_embd: 256 })).toBe(6 * 256 * 2 * 2);
    expect(kvBytesPerToken({ ...tiny, metadata: { ...tiny.metadata, 'llama.attention.head_count_kv': '[4,4,2]' } })).toBe(6144);
  });
});
