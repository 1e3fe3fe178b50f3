import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * A stand-in for WebLLM's loaded `LLMChatPipeline` and TVM's runtime, as the
 * lanes call them: the same property and function names, a KV cache that
 * really keeps each sequence's tokens, and logits that depend only on what a
 * sequence holds (so a sequence decoded in a batch must get the logits it
 * gets alone, unless the lanes mix rows up). The methods the load-time guard
 * reads are WebLLM 0.2.79's real ones, taken from its source in the test run.
 */

const require = createRequire(import.meta.url);
const read = (path: string) => readFileSync(path, 'utf8').replaceAll('\r\n', '\n');
/** WebLLM 0.2.79's bundle (tools/real-engine pins it) and 0.2.86's (what this package builds against). */
export const webllmSources = {
  '0.2.79': read(require.resolve('../../../tools/real-engine/node_modules/web-llm-0.2.79/lib/index.js')),
  '0.2.86': read(require.resolve('@mlc-ai/web-llm')),
};

/** A class of the bundle, evaluated alone (its methods are only read, never run). */
function classFrom(source: string, name: string): { prototype: Record<string, unknown> } {
  const start = source.indexOf(`\nclass ${name} `);
  if (start < 0) throw new Error(`no class ${name} in this WebLLM`);
  const end = source.indexOf('\n}\n', start);
  return new Function(`${source.slice(start, end + 2)}\nreturn ${name};`)() as { prototype: Record<string, unknown> };
}

/** The methods of the real pipeline that the lanes' guard reads. */
export function realPipelineMethods(version: keyof typeof webllmSources): Record<string, unknown> {
  const Real = classFrom(webllmSources[version], 'LLMChatPipeline');
  return Object.fromEntries(
    ['embedAndForward', 'getTokensEmbeddings', 'getInputData', 'prefillStep', 'forwardPrefill']
      .filter((m) => Real.prototype[m] !== undefined)
      .map((m) => [m, Real.prototype[m]]),
  );
}

export const VOCAB = 32;
/** Token 0 ends a reply; 1..26 are letters, 27 a space, the rest punctuation. */
const ALPHABET = '\u0000abcdefghijklmnopqrstuvwxyz .|:!?';

class Tensor {
  shape: number[];
  data: Float32Array;
  constructor(shape: number[], data?: Float32Array) {
    this.shape = shape;
    this.data = data ?? new Float32Array(shape.reduce((a, b) => a * b, 1));
  }
  view(shape: number[]): Tensor {
    return new Tensor(shape, this.data);
  }
  copyFrom(data: ArrayLike<number> | Tensor): Tensor {
    this.data.set(data instanceof Tensor ? data.data : Float32Array.from(data));
    return this;
  }
  toArray(): Float32Array {
    return this.data.slice();
  }
  dispose(): void {}
}

const scalar = (value: number, dtype: string) => ({ value, dtype });
type Scalar = ReturnType<typeof scalar>;
type Tuple = { tuple: number[] };

/** Token 0 ends a reply; then the characters of JSON objects of booleans and small numbers (`alphabet: JSON_ALPHABET`). */
export const JSON_ALPHABET = '\u0000{}":, \ntruefalsnok0123xy|';

/** Logits that depend only on a sequence's tokens (a hash), spread enough to have one largest. */
export function logitsOf(tokens: readonly number[], vocab = VOCAB): Float32Array {
  let h = 2_166_136_261;
  for (const t of tokens) h = Math.imul(h ^ (t + 1), 16_777_619) >>> 0;
  const row = new Float32Array(vocab);
  for (let v = 0; v < vocab; v += 1) {
    const x = Math.imul(h ^ (v * 2_654_435_761), 2_246_822_519) >>> 0;
    row[v] = (x % 10_000) / 1000;
  }
  // Short replies: the end token grows with length.
  row[0] = row[0]! - 6 + tokens.length * 0.02;
  return row;
}

class Conversation {
  config: Record<string, unknown>;
  messages: Array<[string, string | undefined]> = [];
  override_system_message: string | undefined;
  constructor(config: Record<string, unknown>, _isTextCompletion: boolean) {
    this.config = config;
  }
  appendMessage(role: string, message: string): void {
    this.messages.push([role, message]);
  }
  appendReplyHeader(role: string): void {
    this.messages.push([role, undefined]);
  }
  getPromptArray(): string[] {
    const system = this.override_system_message ?? (this.config.system_message as string);
    return [`${system}|`, ...this.messages.map(([r, m]) => (m === undefined ? `${r[0]}:` : `${r[0]}:${m}|`))];
  }
}

/** One forward the model ran: which function, which sequences, how many tokens each. */
export interface Forward {
  fn: 'prefill' | 'decode' | 'batch_decode';
  seqs: number[];
  lengths: number[];
}

/** The stand-in pipeline, and what it saw. */
export function fakeLanePipeline(
  options: {
    noBatchDecode?: boolean;
    version?: keyof typeof webllmSources;
    fork?: 'works' | 'throws' | 'missing';
    /** The tokenizer's vocabulary, a character a token. Default: letters and some punctuation (`VOCAB` tokens). */
    alphabet?: string;
  } = {},
) {
  const alphabet = options.alphabet ?? ALPHABET;
  const vocab = options.alphabet?.length ?? VOCAB;
  const kv = new Map<number, number[]>();
  const forks: Array<{ parent: number; child: number; at: number }> = [];
  const forwards: Forward[] = [];
  let scopes = 0;
  let current: { seqs: number[]; lengths: number[] } | undefined;
  let gate: Promise<void> | undefined;
  let failNext = false;
  const cacheArgs: number[][] = [];
  const inScope = <T>(fn: T): T => {
    if (scopes === 0) throw new Error('a TVM function outside a scope');
    return fn;
  };
  const run = (fn: Forward['fn'], input: Tensor) => {
    if (!current) throw new Error('forward outside begin/end forward');
    if (failNext) {
      failNext = false;
      throw new Error('device lost');
    }
    const { seqs, lengths } = current;
    forwards.push({ fn, seqs: [...seqs], lengths: [...lengths] });
    const out = new Tensor([seqs.length, 1, vocab]);
    let at = 0;
    seqs.forEach((seq, row) => {
      const tokens = kv.get(seq);
      if (!tokens) throw new Error(`no sequence ${seq}`);
      for (let k = 0; k < lengths[row]!; k += 1) tokens.push(input.data[at++]!);
      out.data.set(logitsOf(tokens, vocab), row * vocab);
    });
    return { get: (i: number) => (i === 0 ? out : undefined) };
  };
  const globals: Record<string, (...args: never[]) => unknown> = {
    'vm.builtin.kv_state_add_sequence': (_kv: unknown, seq: Scalar) => {
      if (kv.has(seq.value)) throw new Error(`sequence ${seq.value} exists`);
      kv.set(seq.value, []);
    },
    'vm.builtin.kv_state_remove_sequence': (_kv: unknown, seq: Scalar) => void kv.delete(seq.value),
    'vm.builtin.kv_state_popn': (_kv: unknown, seq: Scalar, n: Scalar) => {
      const tokens = kv.get(seq.value)!;
      if (n.value > tokens.length) throw new Error('pop past the start');
      tokens.length -= n.value;
    },
    'vm.builtin.kv_state_fork_sequence': (_kv: unknown, parent: Scalar, child: Scalar, at: Scalar) => {
      if (options.fork === 'throws') throw new Error('ForkSequence expects 3 arguments');
      const tokens = kv.get(parent.value);
      if (!tokens || kv.has(child.value) || at.value > tokens.length) throw new Error('bad fork');
      forks.push({ parent: parent.value, child: child.value, at: at.value });
      kv.set(child.value, tokens.slice(0, at.value));
    },
    'vm.builtin.kv_state_begin_forward': (_kv: unknown, seqs: Tuple, lengths: Tuple) => {
      current = { seqs: seqs.tuple, lengths: lengths.tuple };
    },
    'vm.builtin.kv_state_end_forward': () => {
      current = undefined;
    },
  };
  if (options.fork === 'missing') delete globals['vm.builtin.kv_state_fork_sequence'];
  const tvm = {
    beginScope: () => void (scopes += 1),
    endScope: () => void (scopes -= 1),
    detachFromCurrentScope: <T>(value: T) => value,
    empty: (shape: number[]) => inScope(new Tensor(shape)),
    makeShapeTuple: (tuple: number[]) => ({ tuple: [...tuple] }),
    scalar,
    cpu: () => 'cpu',
    getGlobalFunc: (name: string) => {
      const fn = globals[name];
      if (!fn) throw new Error(`Cannot find global function ${name}`);
      return inScope(fn);
    },
  };
  const vmFunctions: Record<string, unknown> = {
    batch_decode: (e: Tensor) => run('batch_decode', e),
    create_tir_paged_kv_cache: (...args: Tuple[]) => {
      cacheArgs.push(args.map((a) => a.tuple[0]!));
      return { name: 'lanes-kv' };
    },
  };
  if (options.noBatchDecode) delete vmFunctions.batch_decode;
  const version = options.version ?? '0.2.79';
  const pipeline = {
    ...realPipelineMethods(version),
    ...(version === '0.2.86' ? { resolvedModelABI: { prefillABI: 'single', decodeABI: 'single' } } : {}),
    tvm,
    vm: {
      getFunction: (name: string) => {
        const fn = vmFunctions[name];
        if (!fn) throw new Error(`Cannot find function ${name}`);
        return inScope(fn);
      },
    },
    device: { sync: () => gate ?? Promise.resolve() },
    params: { name: 'params' },
    embed: (input: Tensor) => new Tensor([input.shape[0]!, 1], input.data),
    prefill: (e: Tensor) => run('prefill', e),
    decoding: (e: Tensor) => run('decode', e),
    prefillChunkSize: 8,
    contextWindowSize: 128,
    slidingWindowSize: -1,
    kvCache: { name: 'webllm-kv' },
    tokenizer: {
      encode: (text: string) => Int32Array.from([...text].map((c) => Math.max(1, alphabet.indexOf(c)))),
      decode: (ids: Int32Array) => [...ids].map((t) => alphabet[t] ?? '?').join(''),
      getVocabSize: () => vocab,
      idToToken: (id: number) => alphabet[id] ?? '',
    },
    fullVocabSize: vocab,
    token_postproc_method: 'raw',
    conversation: new Conversation({}, false),
    config: { conv_template: { system_message: 'sys', stop_str: [] as string[] }, temperature: 0.7, top_p: 0.95 },
    stopTokens: [0],
  };
  return {
    pipeline,
    kv,
    forwards,
    forks,
    cacheArgs,
    /** Until `open()`, every `device.sync()` waits (a step in flight). */
    hold() {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = undefined;
        open();
      };
    },
    failNextForward() {
      failNext = true;
    },
    get scopes() {
      return scopes;
    },
  };
}
