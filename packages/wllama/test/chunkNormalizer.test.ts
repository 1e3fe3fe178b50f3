import { describe, expect, it } from 'vitest';
import { ChunkNormalizer } from '../src/chunkNormalizer.js';

const delta = (content: string | null, finish: string | null = null) => ({
  id: 'c1',
  created: 5,
  choices: [{ index: 0, delta: { content }, finish_reason: finish }],
});

describe('ChunkNormalizer', () => {
  it("turns llama.cpp's stream into content chunks, one finish chunk and a usage chunk with timings", () => {
    const n = new ChunkNormalizer('m.gguf');
    const out = [
      ...n.push({ id: 'c1', choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] }),
      ...n.push(delta('Hel')),
      ...n.push(delta('lo')),
      ...n.push(delta(null, 'length')),
      ...n.push({ id: 'c1', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2 }, timings: { cache_n: 4, prompt_n: 5 } }),
      ...n.end('stop'),
    ];
    expect(out.map((c) => [c.choices[0]?.delta.content, c.choices[0]?.finish_reason])).toEqual([
      ['Hel', null],
      ['lo', null],
      ['', 'length'],
      [undefined, undefined],
    ]);
    expect(out.at(-1)).toMatchObject({
      id: 'c1',
      model: 'm.gguf',
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11, cachedTokens: 4, extra: { timings: { cache_n: 4, prompt_n: 5 } } },
    });
    expect(n.contentChunks).toBe(2);
  });

  it('ends an aborted stream with one abort chunk and no usage', () => {
    const n = new ChunkNormalizer('m.gguf');
    n.push(delta('a'));
    expect(n.end('abort').map((c) => c.choices[0]?.finish_reason)).toEqual(['abort']);
  });

  it('drops content after the finish and maps an unknown reason to stop', () => {
    const n = new ChunkNormalizer('m.gguf');
    expect(n.push(delta('x', 'eos')).map((c) => c.choices[0]?.finish_reason)).toEqual([null, 'stop']);
    expect(n.push(delta('late'))).toEqual([]);
  });
});
