import { type GgufTensor, TENSOR_TYPE, writeGguf } from './ggufWriter.js';
import { testVocabulary } from './testVocabulary.js';

/** The shape of a test model. */
export interface TinyGgufOptions {
  /** Seeds every weight: the same seed and shape give the same bytes. Default `1`. */
  seed?: number;
  /** Hidden width; a multiple of 32 (Q8_0 blocks). Default `256`. */
  embedding?: number;
  /** Transformer blocks. Default `6`. */
  layers?: number;
  /** Attention heads; must divide `embedding`. Default `4`. */
  heads?: number;
  /** Feed-forward width; a multiple of 32. Default `768`. */
  feedForward?: number;
  /** Context length the model declares. Default `4096`. */
  context?: number;
  /**
   * Written as the model's pooling (`1`, mean): a model loaded with
   * `embeddings: true` then gives one vector per input. Default `false`.
   */
  embeddingModel?: boolean;
  /** `general.name`. Default `'inkling-tiny-random'`. */
  name?: string;
}

/**
 * The chat template written into test models: each message as `<|role|>`, a
 * newline and its content; then `<|assistant|>` to prompt the answer.
 *
 * @example
 * // <|user|>\nHello\n<|assistant|>\n
 * makeTinyGguf(); // carries TEST_CHAT_TEMPLATE as tokenizer.chat_template
 */
export const TEST_CHAT_TEMPLATE =
  "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}\n{% endfor %}" +
  '{% if add_generation_prompt %}<|assistant|>\n{% endif %}';

/**
 * A tiny Llama-architecture GGUF file with random weights (Q8_0, normal with
 * standard deviation 1/sqrt(fan-in), embeddings 1, norms at 1), the test
 * vocabulary of common English
 * words (see `testVocabulary`) and a chat template, made from a seed with no
 * download. It answers gibberish at a real engine's speed: the defaults make
 * about 8M parameters (9 MB), that wllama loads in about a second and
 * decodes at tens of tokens a second on one CPU thread.
 *
 * Deterministic: the same options give the same bytes.
 *
 * @example
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('.test-models/chat.gguf', makeTinyGguf({ seed: 1 }));
 * writeFileSync('.test-models/embed.gguf', makeTinyGguf({ seed: 2, embedding: 128, layers: 2, embeddingModel: true }));
 */
export function makeTinyGguf(options: TinyGgufOptions = {}): Uint8Array {
  const { seed = 1, embedding: E = 256, layers = 6, heads = 4, feedForward: F = 768, context = 4096 } = options;
  if (E % 32 !== 0 || F % 32 !== 0 || E % heads !== 0) {
    throw new RangeError(
      `makeTinyGguf: embedding (${E}) and feedForward (${F}) must be multiples of 32, and heads (${heads}) must divide embedding.`,
    );
  }
  const vocab = testVocabulary();
  const V = vocab.tokens.length;
  const random = normalSource(seed);
  // Scaled by fan-in (as a network is before training), so every layer moves the residual
  // stream and the answer depends on the prompt, not only on its last token.
  const matrix = (name: string, rows: number, cols: number, std = 1 / Math.sqrt(cols)): GgufTensor => ({
    name,
    dims: [cols, rows],
    type: TENSOR_TYPE.Q8_0,
    data: Float32Array.from({ length: rows * cols }, () => random() * std),
  });
  const norm = (name: string): GgufTensor => ({ name, dims: [E], type: TENSOR_TYPE.F32, data: new Float32Array(E).fill(1) });
  const tensors: GgufTensor[] = [matrix('token_embd.weight', V, E, 1), norm('output_norm.weight'), matrix('output.weight', V, E)];
  for (let i = 0; i < layers; i += 1) {
    tensors.push(
      norm(`blk.${i}.attn_norm.weight`),
      matrix(`blk.${i}.attn_q.weight`, E, E),
      matrix(`blk.${i}.attn_k.weight`, E, E),
      matrix(`blk.${i}.attn_v.weight`, E, E),
      matrix(`blk.${i}.attn_output.weight`, E, E),
      norm(`blk.${i}.ffn_norm.weight`),
      matrix(`blk.${i}.ffn_gate.weight`, F, E),
      matrix(`blk.${i}.ffn_up.weight`, F, E),
      matrix(`blk.${i}.ffn_down.weight`, E, F),
    );
  }
  return writeGguf(llamaMetadata(options, { E, F, layers, heads, context }, vocab), tensors);
}

/** The GGUF header of a tiny Llama: its shape, the test vocabulary and the chat template. */
function llamaMetadata(
  options: TinyGgufOptions,
  shape: { E: number; F: number; layers: number; heads: number; context: number },
  vocab: ReturnType<typeof testVocabulary>,
): Parameters<typeof writeGguf>[0] {
  const { E, F, layers, heads, context } = shape;
  const V = vocab.tokens.length;
  return {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: options.name ?? 'inkling-tiny-random' },
    'general.file_type': { type: 'u32', value: 7 }, // mostly Q8_0
    'llama.context_length': { type: 'u32', value: context },
    'llama.embedding_length': { type: 'u32', value: E },
    'llama.block_count': { type: 'u32', value: layers },
    'llama.feed_forward_length': { type: 'u32', value: F },
    'llama.attention.head_count': { type: 'u32', value: heads },
    'llama.attention.head_count_kv': { type: 'u32', value: heads },
    'llama.rope.dimension_count': { type: 'u32', value: E / heads },
    'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
    'llama.vocab_size': { type: 'u32', value: V },
    ...(options.embeddingModel ? { 'llama.pooling_type': { type: 'u32', value: 1 } as const } : {}),
    'tokenizer.ggml.model': { type: 'string', value: 'llama' },
    'tokenizer.ggml.tokens': { type: 'strings', value: vocab.tokens },
    'tokenizer.ggml.scores': { type: 'f32s', value: vocab.scores },
    'tokenizer.ggml.token_type': { type: 'i32s', value: vocab.types },
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: 1 },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: 2 },
    'tokenizer.ggml.unknown_token_id': { type: 'u32', value: 0 },
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: true },
    'tokenizer.ggml.add_eos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: TEST_CHAT_TEMPLATE },
  };
}

/** Standard normal numbers from a seed: mulberry32 for uniforms, Box-Muller for the shape. */
function normalSource(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const value = spare;
      spare = undefined;
      return value;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const angle = 2 * Math.PI * uniform();
    spare = r * Math.sin(angle);
    return r * Math.cos(angle);
  };
}
