import { InvalidSchemaError, UnsupportedConstraintError } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { type GrammarPipeline, type XGrammar, applyBitmask, startGrammars } from '../src/worker/laneGrammar.js';
import { nodeXGrammar } from './nodeXGrammar.js';

/** A small vocabulary of JSON pieces; token 0 ends a reply. */
const VOCAB = ['<eos>', '{', '}', '"', ':', ',', ' ', '\n', 'ok', 'n', 'true', 'false', '0', '1', '2', 'x', '  ', '{"', '":', 'null'];
const pipeline = (over: Partial<GrammarPipeline> = {}): GrammarPipeline => ({
  tokenizer: { getVocabSize: () => VOCAB.length, idToToken: (id) => VOCAB[id]! },
  fullVocabSize: 24,
  token_postproc_method: 'raw',
  prepend_space_in_encode: false,
  stopTokens: [0],
  ...over,
});
const schema = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, n: { enum: [0, 1, 2] } },
  required: ['ok', 'n'],
  additionalProperties: false,
};
const asking = (s: unknown) => ({
  messages: [],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'x', schema: s as never } },
});

/** Logits that favour tokens by a fixed pseudo-random order per step (what a random-weights model does). */
function noisyRow(step: number, length = 24): Float32Array {
  const row = new Float32Array(length);
  for (let i = 0; i < length; i += 1) row[i] = ((Math.imul(i + 7, 2_654_435_761) ^ Math.imul(step + 3, 40_503)) >>> 0) % 997;
  return row;
}

/** Greedy decoding under the row's grammar: mask, argmax, accept, until the stop token. */
async function decode(row: NonNullable<ReturnType<Awaited<ReturnType<typeof startGrammars>>['forJob']>>, limit = 60) {
  const text: string[] = [];
  for (let step = 0; step < limit; step += 1) {
    await row.prepared;
    const logits = noisyRow(step);
    row.mask(logits);
    let best = 0;
    for (let i = 1; i < logits.length; i += 1) if (logits[i]! > logits[best]!) best = i;
    expect(row.accept(best)).toBe(true);
    if (best === 0) return text.join('');
    text.push(VOCAB[best]!);
  }
  throw new Error(`no stop token in ${limit} steps: ${text.join('')}`);
}

describe('applyBitmask', () => {
  it('keeps the allowed tokens, sets the others and those past the mask to -Infinity', () => {
    const row = Float32Array.from({ length: 40 }, (_, i) => i);
    applyBitmask(row, Int32Array.from([0b1010, 0]));
    expect([...row.slice(0, 5)]).toEqual([-Infinity, 1, -Infinity, 3, -Infinity]);
    expect(row.slice(4, 40).every((v) => v === -Infinity)).toBe(true);
    const full = Float32Array.from({ length: 70 }, (_, i) => i);
    applyBitmask(full, Int32Array.from([-1, 1 << 3]));
    expect(full.slice(0, 32).every((v, i) => v === i)).toBe(true);
    expect(full[35]).toBe(35);
    expect([full[34], full[36], full[64], full[69]]).toEqual([-Infinity, -Infinity, -Infinity, -Infinity]);
  });
});

describe('startGrammars', () => {
  it('makes a row follow its schema to the stop token, whatever the logits favour', async () => {
    const grammars = await startGrammars(nodeXGrammar, pipeline());
    expect(grammars.active).toBe(true);
    const row = grammars.forJob(asking(schema))!;
    expect(row.state).toBe('compiling');
    const text = await decode(row);
    expect(row.state).toBe('ready');
    const value = JSON.parse(text) as { ok: unknown; n: unknown };
    expect(Object.keys(value).toSorted()).toEqual(['n', 'ok']);
    expect(typeof value.ok).toBe('boolean');
    expect([0, 1, 2]).toContain(value.n);
    // WebLLM 0.2.79's layout: an indent of 2, no other white space.
    expect(text).toBe(JSON.stringify(value, null, 2));
    row.dispose();
    grammars.dispose();
  });

  it('masks all but what the grammar allows next, and refuses a token it does not allow', async () => {
    const grammars = await startGrammars(nodeXGrammar, pipeline());
    const row = grammars.forJob({ messages: [], response_format: { type: 'json_object', schema: JSON.stringify(schema) } })!;
    await row.prepared;
    const logits = new Float32Array(24).fill(1);
    row.mask(logits);
    // Only "{" may open the object; the rest of the row (and the 4 tokens past the vocabulary) are out.
    expect([...logits.keys()].filter((i) => logits[i] !== -Infinity)).toEqual([1]);
    expect(row.accept(2)).toBe(false);
    expect(row.accept(1)).toBe(true);
    grammars.dispose();
  });

  it('compiles a schema once per engine, and a job without a constraint gets no matcher', async () => {
    let compiles = 0;
    const counting = async (): Promise<XGrammar> => {
      const xg = await nodeXGrammar();
      return {
        ...xg,
        GrammarCompiler: {
          createGrammarCompiler: async (info) => {
            const compiler = await xg.GrammarCompiler.createGrammarCompiler(info);
            const compileJSONSchema = compiler.compileJSONSchema.bind(compiler);
            compiler.compileJSONSchema = (...args) => {
              compiles += 1;
              return compileJSONSchema(...args);
            };
            return compiler;
          },
        },
      };
    };
    const grammars = await startGrammars(counting, pipeline());
    const rows = [grammars.forJob(asking(schema))!, grammars.forJob(asking({ ...schema }))!];
    await Promise.all(rows.map((row) => row.prepared));
    expect(compiles).toBe(1);
    await grammars.forJob(asking({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }))!.prepared;
    expect(compiles).toBe(2);
    expect(grammars.forJob({ messages: [] })).toBeUndefined();
    expect(grammars.forJob({ messages: [], response_format: { type: 'text' } } as never)).toBeUndefined();
    // Two rows of one schema keep their own state.
    rows[0]!.accept(1);
    const fresh = new Float32Array(24).fill(1);
    await rows[1]!.prepared;
    rows[1]!.mask(fresh);
    expect(fresh[1]).toBe(1);
    grammars.dispose();
  });

  it('fails a bad schema with InvalidSchemaError for that job alone', async () => {
    const grammars = await startGrammars(nodeXGrammar, pipeline());
    // Outside the portable subset: refused before xgrammar sees it.
    const typo = grammars.forJob(asking({ type: 'strnig' }))!;
    await expect(typo.prepared).rejects.toBeInstanceOf(InvalidSchemaError);
    expect(typo.state).toBe('failed');
    // A grammar xgrammar itself cannot compile (its wasm aborts that call): typed too.
    const ebnf = grammars.forJob({ messages: [], response_format: { type: 'grammar', grammar: 'root ::= ' } } as never)!;
    const error = await ebnf.prepared.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSchemaError);
    expect((error as Error).message).toMatch(/xgrammar could not compile it/);
    // The next job's grammar still works.
    const good = grammars.forJob(asking(schema))!;
    expect(JSON.parse(await decode(good))).toHaveProperty('ok');
    grammars.dispose();
  });

  it('says why when xgrammar does not load, or the tokenizer lists no vocabulary', async () => {
    const failed = await startGrammars(() => Promise.reject(new Error('no wasm here')), pipeline());
    expect(failed.active).toBe(false);
    expect(failed.reason).toBe('xgrammar did not load (no wasm here)');
    expect(failed.forJob(asking(schema))).toBeUndefined();
    const blind = await startGrammars(nodeXGrammar, pipeline({ tokenizer: {} }));
    expect(blind.reason).toBe('the tokenizer does not list its vocabulary');
  });

  it('reads the vocabulary at the first constrained job, not at load; where it cannot, that job fails typed', async () => {
    let reads = 0;
    const grammars = await startGrammars(
      nodeXGrammar,
      pipeline({
        tokenizer: {
          getVocabSize: () => VOCAB.length,
          idToToken: (id) => {
            reads += 1;
            if (id === 5) throw new Error('no token 5');
            return VOCAB[id]!;
          },
        },
      }),
    );
    expect(grammars.active).toBe(true);
    expect(reads).toBe(0);
    const row = grammars.forJob(asking(schema))!;
    const error = await row.prepared.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedConstraintError);
    expect((error as Error).message).toMatch(/vocabulary \(no token 5\)/);
  });
});
