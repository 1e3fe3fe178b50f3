/** Bytes per element of llama.cpp's KV cache types (quantized ones per 32-element block). */
const TYPE_BYTES: Record<string, number> = {
  f32: 4,
  f16: 2,
  q8_0: 34 / 32,
  q5_1: 24 / 32,
  q5_0: 22 / 32,
  q4_1: 20 / 32,
  q4_0: 18 / 32,
};

/** Bytes per element of a KV cache type as wllama's `cache_type_k`/`_v` name it; unknown: f32's, the most. */
const typeBytes = (type: unknown): number => TYPE_BYTES[typeof type === 'string' ? type : 'f16'] ?? 4;

/** What a loaded model says about its attention, as wllama's `getLoadedContextInfo()` gives it. */
export interface KvShape {
  n_layer: number;
  n_embd: number;
  /** GGUF metadata, values as text. */
  metadata?: Record<string, string>;
}

/**
 * Bytes one token takes in llama.cpp's KV cache, and so in a saved prompt:
 * layers × KV heads × (key length × K type bytes + value length × V type
 * bytes), from the GGUF's `<arch>.attention.*` keys. Where a key is missing or
 * not one number (per-layer arrays), the width is taken as the model's full
 * hidden width, which is never less than the real one.
 *
 * @example
 * kvBytesPerToken({ n_layer: 24, n_embd: 896, metadata }, { cache_type_k: 'q8_0' });
 */
export function kvBytesPerToken(shape: KvShape, loadParams: Record<string, unknown> = {}): number {
  const meta = shape.metadata ?? {};
  const arch = meta['general.architecture'] ?? '';
  const num = (key: string): number | undefined => {
    const value = Number(meta[`${arch}.attention.${key}`]);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const heads = num('head_count');
  const kvHeads = num('head_count_kv') ?? heads;
  const headWidth = heads === undefined ? undefined : shape.n_embd / heads;
  const keyWidth = kvHeads === undefined ? shape.n_embd : kvHeads * (num('key_length') ?? headWidth ?? shape.n_embd);
  const valueWidth = kvHeads === undefined ? shape.n_embd : kvHeads * (num('value_length') ?? headWidth ?? shape.n_embd);
  return Math.ceil(shape.n_layer * (keyWidth * typeBytes(loadParams.cache_type_k) + valueWidth * typeBytes(loadParams.cache_type_v)));
}
