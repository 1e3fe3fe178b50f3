/**
 * The greedy pick of a batch of rows on the GPU: the lanes' logits stay
 * where the model wrote them, a small WebGPU compute shader applies each
 * row's penalties and `logit_bias` in place and takes the largest logit of
 * each row, and only one token id per row comes back (4 bytes instead of
 * 607,744 for Qwen's 151,936 logits). The CPU pick (`laneSampler.ts`) reads
 * every row back and scans it; at 8 rows that is ~5 MB a step.
 *
 * Same rules as the CPU pick: the repetition penalty divides a positive
 * logit and multiplies a negative one, then presence and frequency are
 * subtracted, for every token the row generated; then the bias is added;
 * ties go to the lowest id and NaN never wins. The GPU computes in float32
 * where the CPU computes each adjusted value in float64 before storing it,
 * so an adjusted logit may differ in its last bit.
 *
 * It runs on the GPU device of TVM's WebGPU runtime (the one WebLLM loaded
 * the model on), reached through the runtime's own fields; where they are
 * missing, or the logits are not float32, the lanes keep the CPU pick.
 *
 * The shader reads its tensor from the start of its GPU buffer, so the lanes
 * hand it a tensor of their own (`tvm.empty` on the GPU, the model's logits
 * copied in by TVM, whose copy applies the source's real byte offset). A
 * model's output may sit at an offset in a pooled buffer, and TVM 0.2.79's
 * JavaScript reads `DLTensor.byte_offset` four bytes early (from the padding
 * before the 8-byte-aligned field: 0.2.86 aligns it), so the offset the
 * tensor object shows cannot be trusted there; WebGPU would also refuse a
 * storage binding at an offset not a multiple of 256.
 */

/** One adjusted logit: a token the row generated (`count` > 0) or biased. */
export interface PickFixup {
  row: number;
  token: number;
  count: number;
  bias: number;
  repetition: number;
  presence: number;
  frequency: number;
}

/** The part of a GPU device the pick uses (a WebGPU `GPUDevice`). */
interface Device {
  createBuffer(descriptor: { size: number; usage: number; mappedAtCreation?: boolean }): Buffer;
  createShaderModule(descriptor: { code: string }): unknown;
  createComputePipeline(descriptor: { layout: unknown; compute: { module: unknown; entryPoint: string } }): Pipeline;
  createBindGroupLayout(descriptor: { entries: unknown[] }): unknown;
  createPipelineLayout(descriptor: { bindGroupLayouts: unknown[] }): unknown;
  createBindGroup(descriptor: { layout: unknown; entries: unknown[] }): unknown;
  createCommandEncoder(): Encoder;
  queue: { writeBuffer(buffer: Buffer, offset: number, data: ArrayBufferView): void; submit(commands: unknown[]): void };
}
interface Buffer {
  readonly size: number;
  mapAsync(mode: number): Promise<void>;
  getMappedRange(): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}
type Pipeline = object;
interface Encoder {
  beginComputePass(): {
    setPipeline(pipeline: Pipeline): void;
    setBindGroup(index: number, group: unknown): void;
    dispatchWorkgroups(x: number): void;
    end(): void;
  };
  copyBufferToBuffer(from: Buffer, fromOffset: number, to: Buffer, toOffset: number, size: number): void;
  finish(): unknown;
}

/**
 * A TVM tensor on the GPU, as far as the pick reads one: one the caller
 * allocated (`tvm.empty`), so its data starts at its buffer's first byte.
 */
export interface GpuTensorLike {
  readonly shape: number[];
  readonly dtype?: string;
  getDataPtr?(): number;
}

/** WebGPU's flags, by value (no DOM typings in a worker file). */
const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 } as const;
const MAP_READ = 0x1;
const NONE = 0xff_ff_ff_ff;
/** Words per fixup in the shader's struct. */
const FIXUP_WORDS = 8;
const WORKGROUP = 256;
/** A compute-stage buffer binding of the layout. */
const entry = (binding: number, type: string) => ({ binding, visibility: 4, buffer: { type } });

const SHADER = /* wgsl */ `
struct Params { rows: u32, vocab: u32, fixups: u32, pad: u32 }
struct Fixup { row: u32, token: u32, count: u32, bias: f32, repetition: f32, presence: f32, frequency: f32, pad: u32 }
@group(0) @binding(0) var<storage, read_write> logits: array<f32>;
@group(0) @binding(1) var<storage, read> fixups: array<Fixup>;
@group(0) @binding(2) var<storage, read_write> picks: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(64)
fn adjust(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x >= params.fixups) { return; }
  let f = fixups[id.x];
  let at = f.row * params.vocab + f.token;
  var v = logits[at];
  if (f.count > 0u) {
    if (f.repetition != 1.0) {
      if (v > 0.0) { v = v / f.repetition; } else { v = v * f.repetition; }
    }
    v = v - (f.presence + f.frequency * f32(f.count));
  }
  logits[at] = v + f.bias;
}

var<workgroup> bestValue: array<f32, ${WORKGROUP}>;
var<workgroup> bestIndex: array<u32, ${WORKGROUP}>;

@compute @workgroup_size(${WORKGROUP})
fn argmax(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let base = group.x * params.vocab;
  var value = 0.0;
  var index = ${NONE}u;
  for (var k = t; k < params.vocab; k = k + ${WORKGROUP}u) {
    let v = logits[base + k];
    // NaN never wins; the first value found, then only a larger one (so ties keep the lowest id).
    if (v == v && (index == ${NONE}u || v > value)) { value = v; index = k; }
  }
  bestValue[t] = value;
  bestIndex[t] = index;
  workgroupBarrier();
  for (var s = ${WORKGROUP / 2}u; s > 0u; s = s >> 1u) {
    if (t < s) {
      let other = bestIndex[t + s];
      let mine = bestIndex[t];
      if (other != ${NONE}u && (mine == ${NONE}u || bestValue[t + s] > bestValue[t] || (bestValue[t + s] == bestValue[t] && other < mine))) {
        bestValue[t] = bestValue[t + s];
        bestIndex[t] = other;
      }
    }
    workgroupBarrier();
  }
  if (t == 0u) { picks[group.x] = bestIndex[0]; }
}
`;

/** Greedy picks of whole batches on the GPU. */
export interface GpuPick {
  /**
   * Queues the pick of `rows` rows of `logits` ([rows, 1, vocab], float32,
   * on the GPU, a tensor the caller allocated: see `GpuTensorLike`) after
   * the work already queued; the ids come back when the
   * GPU is done (-1 for a row of NaN only). Call it before the tensor's TVM
   * scope ends. Changes the logits in place.
   */
  pick(logits: GpuTensorLike, rows: number, fixups: readonly PickFixup[]): Promise<Int32Array>;
  dispose(): void;
}

/**
 * The GPU pick on TVM's WebGPU runtime `tvm` (WebLLM's `pipeline.tvm`), or
 * why there is none.
 *
 * @example
 * const gpu = createGpuPick(pipeline.tvm, 8);
 * if (typeof gpu !== 'string') tokens = await gpu.pick(logits, rows, []);
 */
export function createGpuPick(tvm: unknown, maxRows: number): GpuPick | string {
  const context = (tvm as { lib?: { webGPUContext?: { device?: unknown; gpuBufferFromPtr?: unknown; flushCommands?: unknown } } } | null)
    ?.lib?.webGPUContext;
  if (!context || typeof context.gpuBufferFromPtr !== 'function' || typeof context.device !== 'object' || context.device === null)
    return "TVM's runtime here shows no WebGPU device";
  const device = context.device as Device;
  const bufferOf = (ptr: number) => (context.gpuBufferFromPtr as (ptr: number) => Buffer).call(context, ptr);
  // A runtime that gathers kernels in a pending encoder (0.2.86's) submits them before the pick's.
  const flush = typeof context.flushCommands === 'function' ? () => (context.flushCommands as () => void).call(context) : () => undefined;
  try {
    return new Picker(device, bufferOf, flush, maxRows);
  } catch (error) {
    return `the pick's shader did not build (${error instanceof Error ? error.message : String(error)})`;
  }
}

class Picker implements GpuPick {
  readonly #device: Device;
  readonly #bufferOf: (ptr: number) => Buffer;
  readonly #flush: () => void;
  readonly #adjust: Pipeline;
  readonly #argmax: Pipeline;
  readonly #layout: unknown;
  readonly #params: Buffer;
  readonly #picks: Buffer;
  readonly #staging: Buffer;
  readonly #maxRows: number;
  #fixups: Buffer;
  /** The staging buffer is mapping: one pick at a time (the lanes' loop waits for each). */
  #busy = false;

  constructor(device: Device, bufferOf: (ptr: number) => Buffer, flush: () => void, maxRows: number) {
    this.#device = device;
    this.#bufferOf = bufferOf;
    this.#flush = flush;
    this.#maxRows = maxRows;
    const module = device.createShaderModule({ code: SHADER });
    this.#layout = device.createBindGroupLayout({
      entries: [entry(0, 'storage'), entry(1, 'read-only-storage'), entry(2, 'storage'), entry(3, 'uniform')],
    });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [this.#layout] });
    this.#adjust = device.createComputePipeline({ layout, compute: { module, entryPoint: 'adjust' } });
    this.#argmax = device.createComputePipeline({ layout, compute: { module, entryPoint: 'argmax' } });
    this.#params = device.createBuffer({ size: 16, usage: USAGE.UNIFORM | USAGE.COPY_DST });
    const pickBytes = Math.max(16, 4 * maxRows);
    this.#picks = device.createBuffer({ size: pickBytes, usage: USAGE.STORAGE | USAGE.COPY_SRC });
    this.#staging = device.createBuffer({ size: pickBytes, usage: USAGE.MAP_READ | USAGE.COPY_DST });
    this.#fixups = this.#fixupBuffer(64);
  }

  #fixupBuffer(count: number): Buffer {
    return this.#device.createBuffer({ size: count * FIXUP_WORDS * 4, usage: USAGE.STORAGE | USAGE.COPY_DST });
  }

  pick(logits: GpuTensorLike, rows: number, asked: readonly PickFixup[]): Promise<Int32Array> {
    if (this.#busy) throw new Error('the GPU pick is still reading back the previous batch');
    if (rows < 1 || rows > this.#maxRows) throw new RangeError(`the GPU pick takes 1 to ${this.#maxRows} rows (got ${rows})`);
    if (logits.dtype !== undefined && logits.dtype !== 'float32')
      throw new TypeError(`the GPU pick reads float32 logits (got ${logits.dtype})`);
    const vocab = logits.shape.at(-1)!;
    if (typeof logits.getDataPtr !== 'function') throw new TypeError('the GPU pick reads a TVM tensor (no getDataPtr)');
    const fixups = asked.filter((f) => f.token >= 0 && f.token < vocab && f.row < rows);
    const buffer = this.#bufferOf(logits.getDataPtr());
    const device = this.#device;
    this.#flush();
    if (fixups.length * FIXUP_WORDS * 4 > this.#fixups.size) {
      this.#fixups.destroy();
      this.#fixups = this.#fixupBuffer(2 ** Math.ceil(Math.log2(fixups.length)));
    }
    if (fixups.length > 0) device.queue.writeBuffer(this.#fixups, 0, packFixups(fixups));
    device.queue.writeBuffer(this.#params, 0, Uint32Array.from([rows, vocab, fixups.length, 0]));
    const group = device.createBindGroup({
      layout: this.#layout,
      entries: [
        { binding: 0, resource: { buffer } },
        { binding: 1, resource: { buffer: this.#fixups } },
        { binding: 2, resource: { buffer: this.#picks } },
        { binding: 3, resource: { buffer: this.#params } },
      ],
    });
    // Queued now, inside the caller's TVM scope: the logits' buffer cannot be reused before it runs.
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setBindGroup(0, group);
    if (fixups.length > 0) {
      pass.setPipeline(this.#adjust);
      pass.dispatchWorkgroups(Math.ceil(fixups.length / 64));
    }
    pass.setPipeline(this.#argmax);
    pass.dispatchWorkgroups(rows);
    pass.end();
    encoder.copyBufferToBuffer(this.#picks, 0, this.#staging, 0, 4 * rows);
    device.queue.submit([encoder.finish()]);
    this.#busy = true;
    return this.#staging.mapAsync(MAP_READ).then(
      () => {
        const ids = Int32Array.from(new Uint32Array(this.#staging.getMappedRange(), 0, rows), (id) => (id === NONE ? -1 : id));
        this.#staging.unmap();
        this.#busy = false;
        return ids;
      },
      (error: unknown) => {
        this.#busy = false;
        throw error;
      },
    );
  }

  dispose(): void {
    for (const buffer of [this.#params, this.#picks, this.#staging, this.#fixups]) buffer.destroy();
  }
}

/** The fixups as the shader's structs (u32 and f32 words). */
export function packFixups(fixups: readonly PickFixup[]): Uint32Array {
  const words = new Uint32Array(fixups.length * FIXUP_WORDS);
  const floats = new Float32Array(words.buffer);
  for (const [n, f] of fixups.entries()) {
    const at = n * FIXUP_WORDS;
    words[at] = f.row;
    words[at + 1] = f.token;
    words[at + 2] = f.count;
    floats[at + 3] = f.bias;
    floats[at + 4] = f.repetition;
    floats[at + 5] = f.presence;
    floats[at + 6] = f.frequency;
  }
  return words;
}
