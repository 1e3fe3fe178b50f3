import { describe, expect, it } from 'vitest';
import { commonWords, floatToHalf, halfToFloat, makeTinyGguf, testVocabulary } from '../src/testing/index.js';

/** Reads a GGUF header back: version, counts and the metadata keys with string values. */
function readHeader(file: Uint8Array) {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let at = 0;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), Number(view.getBigUint64(at - 8, true)));
  const str = () => {
    const n = u64();
    at += n;
    return new TextDecoder().decode(file.subarray(at - n, at));
  };
  const magic = new TextDecoder().decode(file.subarray(0, 4));
  at = 4;
  const version = u32();
  const tensors = u64();
  const kvs = u64();
  const strings: Record<string, string> = {};
  const sizes: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
  for (let i = 0; i < kvs; i += 1) {
    const key = str();
    const type = u32();
    if (type === 8) strings[key] = str();
    else if (type === 9) {
      const itemType = u32();
      const n = u64();
      for (let j = 0; j < n; j += 1) {
        if (itemType === 8) str();
        else at += sizes[itemType]!;
      }
    } else at += sizes[type]!;
  }
  return { magic, version, tensors, kvs, strings };
}

const same = (x: Uint8Array, y: Uint8Array) => Buffer.from(x).equals(Buffer.from(y));

describe('makeTinyGguf', () => {
  it('writes a GGUF v3 llama model with a chat template', () => {
    const header = readHeader(makeTinyGguf({ layers: 1, embedding: 64, feedForward: 128, heads: 2 }));
    expect(header).toMatchObject({ magic: 'GGUF', version: 3, tensors: 3 + 9 });
    expect(header.strings['general.architecture']).toBe('llama');
    expect(header.strings['tokenizer.ggml.model']).toBe('llama');
    expect(header.strings['tokenizer.chat_template']).toContain('add_generation_prompt');
  });

  it('is deterministic from its seed', () => {
    const shape = { layers: 1, embedding: 64, feedForward: 128, heads: 2 };
    const a = makeTinyGguf({ ...shape, seed: 5 });
    expect(same(makeTinyGguf({ ...shape, seed: 5 }), a)).toBe(true);
    expect(same(makeTinyGguf({ ...shape, seed: 6 }), a)).toBe(false);
  });

  it('has the size of its Q8_0 weights: about 1.06 bytes a parameter', () => {
    const file = makeTinyGguf({ seed: 1 });
    const V = testVocabulary().tokens.length;
    const parameters = 2 * V * 256 + 6 * (4 * 256 * 256 + 3 * 256 * 768);
    expect(parameters).toBeGreaterThan(7_000_000);
    expect(parameters).toBeLessThan(9_000_000);
    expect(file.length / parameters).toBeGreaterThan(34 / 32);
    expect(file.length / parameters).toBeLessThan(1.15);
  });

  it('refuses a width that Q8_0 blocks cannot hold', () => {
    expect(() => makeTinyGguf({ embedding: 100 })).toThrow(/multiples of 32/);
  });
});

describe('testVocabulary', () => {
  it('holds every common word with and without the space marker, all 256 byte tokens (byte fallback for any text), and no duplicates', () => {
    const { tokens, types, scores } = testVocabulary();
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.length).toBe(types.length);
    expect(tokens.length).toBe(scores.length);
    expect(commonWords.length).toBeGreaterThan(500);
    const pieces = new Set(tokens);
    const missing = commonWords.filter((word) => !pieces.has(`\u2581${word}`) || !pieces.has(word));
    expect(missing).toEqual([]);
    const bytes = tokens.filter((_, i) => types[i] === 6);
    expect(bytes).toHaveLength(256);
    expect([bytes[0], bytes[0x7f], bytes[0x80], bytes[0xff]]).toEqual(['<0x00>', '<0x7F>', '<0x80>', '<0xFF>']);
  });
});

describe('half precision', () => {
  it('round-trips the scales Q8_0 stores', () => {
    for (const value of [0, 1, -2.5, 0.000_123, 0.015_625, 65_504]) {
      expect(halfToFloat(floatToHalf(value))).toBeCloseTo(value, 3);
    }
  });
});
