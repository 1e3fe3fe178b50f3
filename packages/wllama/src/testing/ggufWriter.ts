/**
 * The parts of the GGUF file format (version 3) the test model needs:
 * metadata of a few value types, and tensors in F32 or Q8_0.
 *
 * Layout: magic `GGUF`, version, tensor count, metadata count, the metadata
 * (key, value type, value), the tensor descriptions (name, dimensions from the
 * innermost out, type, offset into the data), padding to the alignment, then
 * each tensor's bytes, each starting on the alignment.
 */

/** GGUF metadata value types. */
const VALUE = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;

/**
 * ggml tensor types the writer can store.
 *
 * @example
 * const norm: GgufTensor = { name: 'output_norm.weight', dims: [256], type: TENSOR_TYPE.F32, data };
 */
export const TENSOR_TYPE = { F32: 0, Q8_0: 8 } as const;

/** Q8_0 packs 32 weights as one f16 scale and 32 signed bytes. */
const Q8_BLOCK = 32;
const Q8_BLOCK_BYTES = 2 + Q8_BLOCK;
const ALIGNMENT = 32;

/** A metadata value, tagged with its GGUF type. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: readonly string[] }
  | { type: 'f32s'; value: ArrayLike<number> }
  | { type: 'i32s'; value: ArrayLike<number> };

/** One tensor: `dims` innermost first (a matrix of `rows` x `cols` is `[cols, rows]`). */
export interface GgufTensor {
  name: string;
  dims: readonly number[];
  type: (typeof TENSOR_TYPE)[keyof typeof TENSOR_TYPE];
  data: Float32Array;
}

/** A growable little-endian byte buffer. */
class ByteSink {
  #bytes = new Uint8Array(1 << 16);
  #view = new DataView(this.#bytes.buffer);
  length = 0;

  #reserve(n: number): void {
    if (this.length + n <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#bytes.subarray(0, this.length));
    this.#bytes = next;
    this.#view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.#reserve(1);
    this.#view.setUint8(this.length, v);
    this.length += 1;
  }
  i8(v: number): void {
    this.#reserve(1);
    this.#view.setInt8(this.length, v);
    this.length += 1;
  }
  u16(v: number): void {
    this.#reserve(2);
    this.#view.setUint16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number): void {
    this.#reserve(4);
    this.#view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.#reserve(4);
    this.#view.setInt32(this.length, v, true);
    this.length += 4;
  }
  f32(v: number): void {
    this.#reserve(4);
    this.#view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number): void {
    this.#reserve(8);
    this.#view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  raw(bytes: Uint8Array): void {
    this.#reserve(bytes.length);
    this.#bytes.set(bytes, this.length);
    this.length += bytes.length;
  }
  pad(alignment: number): void {
    while (this.length % alignment !== 0) this.u8(0);
  }
  string(s: string): void {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.raw(b);
  }
  done(): Uint8Array {
    return this.#bytes.slice(0, this.length);
  }
}

/**
 * Writes a GGUF file from its metadata and tensors.
 *
 * @example
 * const file = writeGguf({ 'general.architecture': { type: 'string', value: 'llama' } }, tensors);
 */
export function writeGguf(metadata: Record<string, GgufValue>, tensors: readonly GgufTensor[]): Uint8Array {
  const out = new ByteSink();
  out.raw(new TextEncoder().encode('GGUF'));
  out.u32(3);
  out.u64(tensors.length);
  const entries = Object.entries({ ...metadata, 'general.alignment': { type: 'u32', value: ALIGNMENT } as GgufValue });
  out.u64(entries.length);
  for (const [key, value] of entries) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const d of tensor.dims) out.u64(d);
    out.u32(tensor.type);
    out.u64(offset);
    offset += align(tensorBytes(tensor));
  }
  out.pad(ALIGNMENT);
  for (const tensor of tensors) {
    if (tensor.type === TENSOR_TYPE.F32) for (const v of tensor.data) out.f32(v);
    else writeQ8_0(out, tensor.data);
    out.pad(ALIGNMENT);
  }
  return out.done();
}

function writeValue(out: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case 'u32':
      out.u32(VALUE.UINT32);
      out.u32(v.value);
      return;
    case 'i32':
      out.u32(VALUE.INT32);
      out.i32(v.value);
      return;
    case 'f32':
      out.u32(VALUE.FLOAT32);
      out.f32(v.value);
      return;
    case 'bool':
      out.u32(VALUE.BOOL);
      out.u8(v.value ? 1 : 0);
      return;
    case 'string':
      out.u32(VALUE.STRING);
      out.string(v.value);
      return;
    case 'strings':
      out.u32(VALUE.ARRAY);
      out.u32(VALUE.STRING);
      out.u64(v.value.length);
      for (const s of v.value) out.string(s);
      return;
    case 'f32s':
      out.u32(VALUE.ARRAY);
      out.u32(VALUE.FLOAT32);
      out.u64(v.value.length);
      for (let i = 0; i < v.value.length; i += 1) out.f32(v.value[i] ?? 0);
      return;
    case 'i32s':
      out.u32(VALUE.ARRAY);
      out.u32(VALUE.INT32);
      out.u64(v.value.length);
      for (let i = 0; i < v.value.length; i += 1) out.i32(v.value[i] ?? 0);
      return;
  }
}

function tensorBytes(tensor: GgufTensor): number {
  const n = tensor.data.length;
  return tensor.type === TENSOR_TYPE.F32 ? n * 4 : (n / Q8_BLOCK) * Q8_BLOCK_BYTES;
}

function align(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}

/** Q8_0: per block of 32, scale = max |w| / 127 (as f16), then round(w / scale) as int8. */
function writeQ8_0(out: ByteSink, data: Float32Array): void {
  if (data.length % Q8_BLOCK !== 0) throw new Error(`Q8_0 needs a multiple of ${Q8_BLOCK} values; got ${data.length}.`);
  for (let b = 0; b < data.length; b += Q8_BLOCK) {
    let max = 0;
    for (let i = 0; i < Q8_BLOCK; i += 1) max = Math.max(max, Math.abs(data[b + i] ?? 0));
    const scale = max / 127;
    const stored = halfToFloat(floatToHalf(scale));
    out.u16(floatToHalf(scale));
    for (let i = 0; i < Q8_BLOCK; i += 1) {
      const q = stored === 0 ? 0 : Math.round((data[b + i] ?? 0) / stored);
      out.i8(Math.max(-127, Math.min(127, q)));
    }
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * IEEE 754 single to half precision bits, rounding to nearest (values here are small and finite).
 *
 * @example
 * floatToHalf(1); // 0x3c00
 */
export function floatToHalf(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exponent = ((x >>> 23) & 0xff) - 127 + 15;
  const mantissa = x & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const m = (mantissa | 0x800000) >>> (1 - exponent);
    return sign | ((m + 0x1000) >>> 13);
  }
  if (exponent >= 31) return sign | 0x7c00;
  return (sign | (exponent << 10) | (mantissa >>> 13)) + ((mantissa >>> 12) & 1);
}

/**
 * Half precision bits back to a number.
 *
 * @example
 * halfToFloat(0x3c00); // 1
 */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >>> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (mantissa / 1024);
  if (exponent === 31) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
}
