/**
 * JSON-schema and grammar jobs on the lanes: each constrained row has its own
 * xgrammar matcher (`@mlc-ai/web-xgrammar`, the package WebLLM itself
 * inlines). Before a row's pick its matcher's token bitmask turns every token
 * the grammar does not allow next into `-Infinity`; the picked token is then
 * accepted by the matcher; the row ends when the model picks a stop token,
 * which the matcher allows only where the grammar is complete (as on
 * WebLLM's own path). Each schema is compiled once per engine (kept by its
 * text), a matcher made per job.
 *
 * JSON schemas compile as WebLLM 0.2.79 compiles them: an indent of 2 and no
 * other white space (`anyWhitespace: false`), so a greedy row writes what
 * WebLLM's own path writes, and a weak model cannot spin on blanks.
 */

import { type ChatCompletionRequest, InvalidSchemaError, UnsupportedConstraintError } from '@inkling/scheduler';
import { requestedSchema } from '@inkling/scheduler/engine';

/** Something xgrammar made that holds wasm memory. */
export interface XGrammarHandle {
  dispose(): void;
}

/** A compiler of grammars for one tokenizer (`GrammarCompiler`). */
export interface XGrammarCompiler extends XGrammarHandle {
  compileJSONSchema(schema: string, anyWhitespace?: boolean, indent?: number): Promise<XGrammarHandle>;
  compileBuiltinJSONGrammar(): Promise<XGrammarHandle>;
  compileGrammar(ebnf: string): Promise<XGrammarHandle>;
}

/** One sequence's matcher (`GrammarMatcher`). */
export interface XGrammarMatcher extends XGrammarHandle {
  getNextTokenBitmask(): Promise<Int32Array>;
  acceptToken(token: number): boolean;
  isTerminated(): boolean;
}

/** The part of `@mlc-ai/web-xgrammar` (0.1.27's API) the lanes use. */
export interface XGrammar {
  TokenizerInfo: {
    createTokenizerInfo(
      vocab: string[],
      vocabType?: string,
      prependSpace?: boolean,
      vocabSize?: number,
      stopTokens?: number[],
    ): Promise<XGrammarHandle>;
  };
  GrammarCompiler: { createGrammarCompiler(info: XGrammarHandle): Promise<XGrammarCompiler> };
  GrammarMatcher: { createGrammarMatcher(compiled: XGrammarHandle): Promise<XGrammarMatcher> };
}

/** What the grammars read of WebLLM's pipeline: its tokenizer's table and the config fields WebLLM passes to xgrammar. */
export interface GrammarPipeline {
  tokenizer: { getVocabSize?(): number; idToToken?(id: number): string };
  /** The logits' length (the model's `vocab_size`), at least the tokenizer's. */
  fullVocabSize?: number;
  /** `tokenizer_info.token_postproc_method` of the model config: `byte_level` for Qwen, `raw`... */
  token_postproc_method?: string;
  prepend_space_in_encode?: boolean;
  stopTokens: number[];
}

/** A constrained row's matcher. */
export interface RowGrammar {
  /** `compiling` until the matcher and its first mask are ready; `failed` when the schema did not compile. */
  readonly state: 'compiling' | 'ready' | 'failed';
  /** Settles when the next pick may use `mask`: the first time after the compile (rejects with the typed error when it failed), then after each `accept`. */
  readonly prepared: Promise<void>;
  /** Sets every token the grammar does not allow next to `-Infinity` (after `prepared`). */
  mask(row: Float32Array): void;
  /** Moves the matcher past `token`; false when the grammar does not allow it (the row cannot go on). */
  accept(token: number): boolean;
  /** Frees the matcher. */
  dispose(): void;
}

/** One engine's grammars, or why its lanes have none (then constrained jobs run on WebLLM's own path). */
export interface LaneGrammars {
  readonly active: boolean;
  /** Why not, when not active. */
  readonly reason: string | undefined;
  /** A matcher for `request`, or `undefined` when it asks for no constraint. Never throws: a bad schema gives a `failed` row. */
  forJob(request: ChatCompletionRequest): RowGrammar | undefined;
  dispose(): void;
}

/** How many compiled schemas an engine keeps (the oldest goes first). */
const KEPT = 16;

/** A request's constraint: its cache key and how to compile it; `undefined` for none. Throws `InvalidSchemaError`. */
export function constraintOf(
  request: ChatCompletionRequest,
): { key: string; compile: (c: XGrammarCompiler) => Promise<XGrammarHandle> } | undefined {
  const format = request.response_format as { type?: string; schema?: unknown; grammar?: unknown } | undefined | null;
  if (!format) return undefined;
  if (format.type === 'grammar') {
    if (typeof format.grammar !== 'string') throw new InvalidSchemaError('', 'response_format.grammar is not an EBNF string.');
    const ebnf = format.grammar;
    return { key: `ebnf:${ebnf}`, compile: (c) => c.compileGrammar(ebnf) };
  }
  if (format.type !== 'json_object' && format.type !== 'json_schema') return undefined;
  const schema = requestedSchema(request);
  if (schema === undefined) return { key: 'json', compile: (c) => c.compileBuiltinJSONGrammar() };
  const text = JSON.stringify(schema);
  return { key: `schema:${text}`, compile: (c) => c.compileJSONSchema(text, false, 2) };
}

/** Lanes without grammars, saying why. */
export function noGrammars(reason: string): LaneGrammars {
  return { active: false, reason, forJob: () => undefined, dispose() {} };
}

/**
 * The grammars of one engine's lanes: xgrammar loaded and its wasm checked
 * now (a tokenizer info of no tokens); the real one, from the pipeline's
 * whole vocabulary, and the compiler over it are made at the first
 * constrained job (about a second for Qwen's 151,646 tokens, which an engine
 * that never sees a schema does not pay). Never throws: where xgrammar fails
 * to load, it says why (`active` false).
 *
 * @example
 * const grammars = await startGrammars(() => import('@mlc-ai/web-xgrammar'), pipeline);
 * const row = grammars.forJob(request); // undefined for an unconstrained request
 */
export async function startGrammars(load: () => Promise<XGrammar>, pipeline: GrammarPipeline): Promise<LaneGrammars> {
  const tokenizer = (pipeline as Partial<GrammarPipeline> | undefined)?.tokenizer;
  if (typeof tokenizer?.getVocabSize !== 'function' || typeof tokenizer.idToToken !== 'function')
    return noGrammars('the tokenizer does not list its vocabulary');
  try {
    const xg = await load();
    (await xg.TokenizerInfo.createTokenizerInfo([])).dispose();
    return new Grammars(xg, () => compilerFor(xg, pipeline));
  } catch (error) {
    return noGrammars(`xgrammar did not load (${describe(error)})`);
  }
}

/** xgrammar's tokenizer info of the pipeline's vocabulary (as WebLLM makes its own), and a compiler over it. */
async function compilerFor(xg: XGrammar, pipeline: GrammarPipeline): Promise<{ info: XGrammarHandle; compiler: XGrammarCompiler }> {
  const tokenizer = pipeline.tokenizer as Required<GrammarPipeline['tokenizer']>;
  const size = tokenizer.getVocabSize();
  const table: string[] = [];
  for (let id = 0; id < size; id += 1) table.push(tokenizer.idToToken(id));
  const info = await xg.TokenizerInfo.createTokenizerInfo(
    table,
    pipeline.token_postproc_method ?? 'raw',
    pipeline.prepend_space_in_encode ?? false,
    Math.max(size, pipeline.fullVocabSize ?? 0),
    pipeline.stopTokens,
  );
  return { info, compiler: await xg.GrammarCompiler.createGrammarCompiler(info) };
}

class Grammars implements LaneGrammars {
  readonly active = true;
  readonly reason = undefined;
  readonly #xg: XGrammar;
  readonly #start: () => Promise<{ info: XGrammarHandle; compiler: XGrammarCompiler }>;
  /** The tokenizer info and compiler, once the first constrained job asked. */
  #tools: Promise<{ info: XGrammarHandle; compiler: XGrammarCompiler }> | undefined;
  readonly #compiled = new Map<string, Promise<XGrammarHandle>>();

  constructor(xg: XGrammar, start: () => Promise<{ info: XGrammarHandle; compiler: XGrammarCompiler }>) {
    this.#xg = xg;
    this.#start = start;
  }

  forJob(request: ChatCompletionRequest): RowGrammar | undefined {
    let constraint: ReturnType<typeof constraintOf>;
    try {
      constraint = constraintOf(request);
    } catch (error) {
      return new Row(Promise.reject(error as Error), this.#xg);
    }
    if (!constraint) return undefined;
    return new Row(this.#compile(constraint), this.#xg);
  }

  dispose(): void {
    for (const compiled of this.#compiled.values())
      void compiled.then(
        (c) => c.dispose(),
        () => undefined,
      );
    this.#compiled.clear();
    void this.#tools?.then(
      ({ info, compiler }) => {
        compiler.dispose();
        info.dispose();
      },
      () => undefined,
    );
  }

  /** The compiled grammar of `constraint`, from the cache or compiled now (a failure is typed: `InvalidSchemaError`). */
  #compile(constraint: NonNullable<ReturnType<typeof constraintOf>>): Promise<XGrammarHandle> {
    const kept = this.#compiled.get(constraint.key);
    if (kept) {
      // The newest use goes last: the oldest is forgotten first.
      this.#compiled.delete(constraint.key);
      this.#compiled.set(constraint.key, kept);
      return kept;
    }
    // Where the vocabulary cannot be read (after the wasm was checked at load), every constrained job fails, typed.
    this.#tools ??= this.#start().catch((error: unknown) => {
      throw new UnsupportedConstraintError(`xgrammar could not read this model's vocabulary (${describe(error)}).`, { cause: error });
    });
    const compiled = this.#tools.then(({ compiler }) =>
      constraint.compile(compiler).catch((error: unknown) => {
        throw error instanceof InvalidSchemaError
          ? error
          : new InvalidSchemaError('', `xgrammar could not compile it (${describe(error)}).`, { cause: error });
      }),
    );
    this.#compiled.set(constraint.key, compiled);
    // A failure is kept too (the same schema fails at once), but it holds nothing.
    compiled.catch(() => undefined);
    while (this.#compiled.size > KEPT) {
      const [oldest, dropped] = this.#compiled.entries().next().value!;
      this.#compiled.delete(oldest);
      // A matcher keeps what it needs of its grammar (WebLLM disposes the grammar once its matcher is made).
      void dropped.then(
        (c) => c.dispose(),
        () => undefined,
      );
    }
    return compiled;
  }
}

class Row implements RowGrammar {
  state: RowGrammar['state'] = 'compiling';
  prepared: Promise<void>;
  #matcher: XGrammarMatcher | undefined;
  #bitmask: Int32Array | undefined;
  #disposed = false;

  constructor(compiled: Promise<XGrammarHandle>, xg: XGrammar) {
    this.prepared = (async () => {
      try {
        const matcher = await xg.GrammarMatcher.createGrammarMatcher(await compiled);
        if (this.#disposed) return matcher.dispose();
        this.#matcher = matcher;
        this.#bitmask = await matcher.getNextTokenBitmask();
        this.state = 'ready';
      } catch (error) {
        this.state = 'failed';
        throw error;
      }
    })();
    // Whoever awaits it sees the failure; nobody awaiting it (a job closed while compiling) is no unhandled rejection.
    this.prepared.catch(() => undefined);
  }

  mask(row: Float32Array): void {
    const bitmask = this.#bitmask;
    if (!bitmask) throw new Error('The grammar mask was read before it was ready.');
    applyBitmask(row, bitmask);
  }

  accept(token: number): boolean {
    const matcher = this.#matcher;
    if (!matcher || !matcher.acceptToken(token)) return false;
    this.#bitmask = undefined;
    if (!matcher.isTerminated()) this.prepared = matcher.getNextTokenBitmask().then((bitmask) => void (this.#bitmask = bitmask));
    return true;
  }

  dispose(): void {
    this.#disposed = true;
    this.#matcher?.dispose();
    this.#matcher = undefined;
  }
}

/**
 * Sets `row[i]` to `-Infinity` where bit `i` of `bitmask` is 0 (32 tokens a
 * word, the lowest bit first, as xgrammar packs it). Words of all ones are
 * skipped: most of a JSON string's vocabulary is allowed.
 *
 * @example
 * applyBitmask(row, await matcher.getNextTokenBitmask());
 */
export function applyBitmask(row: Float32Array, bitmask: Int32Array): void {
  const words = Math.min(bitmask.length, Math.ceil(row.length / 32));
  for (let w = 0; w < words; w += 1) {
    const bits = bitmask[w]!;
    if (bits === -1) continue;
    const base = w * 32;
    const end = Math.min(32, row.length - base);
    for (let b = 0; b < end; b += 1) if (((bits >>> b) & 1) === 0) row[base + b] = -Infinity;
  }
  // Tokens past the mask (a logits row longer than xgrammar's vocabulary) are never allowed.
  for (let i = words * 32; i < row.length; i += 1) row[i] = -Infinity;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
