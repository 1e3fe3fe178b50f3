import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { argmax, checkGreedyPick, installGreedyPick } from '../src/worker/greedyPick.js';

/** TVM's `sample_top_p_from_logits` at temperature 0, as it does it: sort everything, take the first. */
function sortThenPick(values: Float32Array): number {
  const pairs = Array.from(values, (value, index) => [value, index] as const);
  pairs.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return pairs[0]![1];
}

/** Logits as TVM hands them over: a CPU NDArray whose `toArray()` copies them out. */
const ndarray = (values: Float32Array | number[]) => ({ toArray: () => values });

/** A pipeline and TVM instance in WebLLM 0.2.79's shape, the calls counted. */
function fakePipeline() {
  const calls = { tvm: 0, draws: 0 };
  const tvm = {
    rng: {
      randomFloat() {
        calls.draws += 1;
        return 0.5;
      },
    },
    ctx: {
      sampleTopPFromLogits(logits: { toArray(): Float32Array }, _temperature: number, _topP: number, _uniform: number) {
        calls.tvm += 1;
        return sortThenPick(logits.toArray());
      },
    },
    sampleTopPFromLogits(logits: unknown, temperature: number, topP: number): number {
      return this.ctx.sampleTopPFromLogits(logits as never, temperature, topP, this.rng.randomFloat());
    },
  };
  const p = {
    tvm,
    logitsOnCPU: undefined as unknown,
    sampleTokenFromLogits(logits: unknown, temperature: number) {
      this.logitsOnCPU = logits;
      return this.tvm.sampleTopPFromLogits(this.logitsOnCPU, temperature, 1);
    },
  };
  const engine = { loadedModelIdToPipeline: new Map([['m', p]]) };
  return { engine, p, calls };
}

function randomLogits(n: number, seed: number): Float32Array {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Float32Array.from({ length: n }, () => (next() - 0.5) * 40);
}

describe('argmax', () => {
  it('finds the largest value; ties go to the lowest index; NaN never wins', () => {
    expect(argmax([1, 5, 3])).toBe(1);
    expect(argmax([2, 7, 7, 1])).toBe(1);
    expect(argmax([Number.NaN, 1, Number.NaN, 2])).toBe(3);
    expect(argmax([Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY])).toBe(0);
    expect(argmax([Number.NaN])).toBe(-1);
    expect(argmax([])).toBe(-1);
  });
});

describe('the greedy pick on a pipeline with WebLLM 0.2.79 semantics', () => {
  it('answers temperature 0 in one pass with the token TVM would pick, drawing the random number TVM draws', () => {
    const { engine, p, calls } = fakePipeline();
    const greedy = installGreedyPick(engine, 'm');
    expect(greedy).toMatchObject({ active: true, reason: undefined, enabled: true });
    for (let seed = 1; seed <= 5; seed += 1) {
      const logits = randomLogits(151_936, seed);
      expect(p.sampleTokenFromLogits(ndarray(logits), 0)).toBe(sortThenPick(logits));
    }
    expect(calls).toEqual({ tvm: 0, draws: 5 });
  });

  it('sends every other temperature to TVM, and every pick once switched off', () => {
    const { engine, p, calls } = fakePipeline();
    const greedy = installGreedyPick(engine, 'm');
    const logits = randomLogits(1000, 7);
    p.sampleTokenFromLogits(ndarray(logits), 0.7);
    p.sampleTokenFromLogits(ndarray(logits), 1e-6);
    expect(calls.tvm).toBe(2);
    greedy.enabled = false;
    expect(p.sampleTokenFromLogits(ndarray(logits), 0)).toBe(sortThenPick(logits));
    expect(calls).toEqual({ tvm: 3, draws: 3 });
  });

  it('leaves to TVM logits it cannot read as float32 (another dtype, all NaN)', () => {
    const { engine, p, calls } = fakePipeline();
    installGreedyPick(engine, 'm');
    p.tvm.ctx.sampleTopPFromLogits = () => {
      calls.tvm += 1;
      return 3;
    };
    expect(p.sampleTokenFromLogits(ndarray([1, 2, 9, 4]), 0)).toBe(3);
    expect(p.sampleTokenFromLogits(ndarray(new Float32Array([Number.NaN, Number.NaN])), 0)).toBe(3);
    expect(calls.tvm).toBe(2);
  });

  it('is refused, with the reason, where the shapes differ', () => {
    const { engine, p } = fakePipeline();
    expect(installGreedyPick(engine, 'other').reason).toMatch(/pipeline elsewhere/);
    expect(checkGreedyPick({ ...p, sampleTokenFromLogits: undefined })).toMatch(/no sampleTokenFromLogits/);
    expect(checkGreedyPick({ ...p, tvm: { ...p.tvm, sampleTopPFromLogits: () => 0 } })).toMatch(/not written for/);
    expect(checkGreedyPick({ ...p, tvm: { ...p.tvm, rng: undefined } })).toMatch(/random stream/);
  });
});

/** A method's text out of a bundled WebLLM's lib/index.js, as a function (it is only read). */
function methodFrom(source: string, signature: string): unknown {
  const start = source.indexOf(signature);
  if (start < 0) throw new Error(`no ${signature} in WebLLM's bundle`);
  const indent = source.slice(source.lastIndexOf('\n', start) + 1, start);
  const end = source.indexOf(`\n${indent}}`, start);
  return (new Function(`return { ${source.slice(start, end + indent.length + 2)} };`)() as Record<string, unknown>)[
    signature.slice(0, signature.indexOf('('))
  ];
}

const read = (path: string) => readFileSync(path, 'utf8').replaceAll('\r\n', '\n');
const shapes = (source: string) => {
  // The pipeline's real methods by name, whatever it has (0.2.86 renamed its sampler).
  const start = source.indexOf('\nclass LLMChatPipeline {');
  const body = source.slice(start, source.indexOf('\n}\n', start));
  const has = (name: string) => body.includes(`\n    ${name}(logitsOnGPU, genConfig) {`);
  return {
    sampleTokenFromLogits: has('sampleTokenFromLogits') ? methodFrom(body, 'sampleTokenFromLogits(logitsOnGPU, genConfig) {') : undefined,
    tvm: { sampleTopPFromLogits: methodFrom(source, 'sampleTopPFromLogits(logits, temperature, top_p) {'), rng: { randomFloat() {} } },
  };
};

describe("the guard, on WebLLM's real source", () => {
  const require = createRequire(import.meta.url);
  it('accepts WebLLM 0.2.79, which picks every token through TVM on the CPU', () => {
    const v079 = read(require.resolve('../../../tools/real-engine/node_modules/web-llm-0.2.79/lib/index.js'));
    expect(checkGreedyPick(shapes(v079))).toBeUndefined();
  });

  it('stays off on WebLLM 0.2.86, which samples on the GPU', () => {
    const v086 = read(require.resolve('@mlc-ai/web-llm'));
    expect(checkGreedyPick(shapes(v086))).toMatch(/no sampleTokenFromLogits\(\) \(0\.2\.86 picks tokens on the GPU\)/);
  });
});
