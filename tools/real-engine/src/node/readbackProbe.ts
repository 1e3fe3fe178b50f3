/**
 * What one logits readback costs on this GPU, outside WebLLM: a buffer the
 * size of Qwen2's logits (151,936 f32) read back the way TVM's WebGPU runtime
 * does it (a new MAP_READ buffer per read, a copy, `mapAsync`, the mapped bytes
 * copied out), against 8 bytes read the same way, against a reused buffer.
 * Phases: submit (create + copy + submit), map (`mapAsync` resolving), read
 * (`getMappedRange` and copying the bytes out). A diagnostic (BENCH_ENTRY=
 * readbackProbe.mjs on device/h200.sh), not shipped code.
 */
import { createRequire } from 'node:module';
import { median } from '../../../../bench/shared/stats.js';
import { dawn, env } from './benchConfig.js';

const REPS = Number(env.PROBE_REPS ?? 30);
// The WebGPU constants (GPUBufferUsage, GPUMapMode), fixed by the specification.
const MAP_READ = 0x1;
const COPY_SRC = 0x4;
const COPY_DST = 0x8;
const STORAGE = 0x80;
const READ = 0x1;
const { create, globals } = createRequire(import.meta.url)(dawn) as { create: (flags: string[]) => GPU; globals: Record<string, unknown> };
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) throw new Error('no WebGPU adapter');
const device = await adapter.requestDevice();
console.log(`adapter: ${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`);

const LOGITS = 151_936 * 4;
const source = device.createBuffer({ size: LOGITS, usage: STORAGE | COPY_SRC | COPY_DST });
device.queue.writeBuffer(
  source,
  0,
  new Float32Array(LOGITS / 4).map((_, i) => Math.sin(i)),
);
await device.queue.onSubmittedWorkDone();

interface Phases {
  submit: number;
  map: number;
  read: number;
}

async function readOnce(size: number, reuse?: GPUBuffer): Promise<Phases> {
  const t0 = performance.now();
  const target = reuse ?? device.createBuffer({ size, usage: MAP_READ | COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(source, 0, target, 0, size);
  device.queue.submit([encoder.finish()]);
  const t1 = performance.now();
  await target.mapAsync(READ);
  const t2 = performance.now();
  const bytes = new Uint8Array(target.getMappedRange()).slice();
  const t3 = performance.now();
  if (bytes.length !== size) throw new Error('short read');
  if (reuse) target.unmap();
  else target.destroy();
  return { submit: t1 - t0, map: t2 - t1, read: t3 - t2 };
}

async function idleSync(): Promise<number> {
  device.queue.submit([device.createCommandEncoder().finish()]);
  const t0 = performance.now();
  await device.queue.onSubmittedWorkDone();
  return performance.now() - t0;
}

const report = (name: string, all: Phases[]) => {
  const m = (pick: (p: Phases) => number) => median(all.map(pick)).toFixed(2);
  const total = all.map((p) => p.submit + p.map + p.read);
  console.log(
    `${name.padEnd(34)} ms p50 total ${median(total).toFixed(2)} (min ${Math.min(...total).toFixed(2)}, max ${Math.max(...total).toFixed(2)}) = submit ${m((p) => p.submit)} + map ${m((p) => p.map)} + read ${m((p) => p.read)}`,
  );
};

const reused = device.createBuffer({ size: LOGITS, usage: MAP_READ | COPY_DST });
const variants: Array<[string, () => Promise<Phases>]> = [
  ['logits (607,744 B), new buffer', () => readOnce(LOGITS)],
  ['8 B, new buffer', () => readOnce(8)],
  ['logits, one reused buffer', () => readOnce(LOGITS, reused)],
];
const results = new Map<string, Phases[]>(variants.map(([name]) => [name, []]));
for (let rep = 0; rep < REPS; rep += 1) {
  // Alternating, so a drift of the clocks lands on every variant alike.
  for (const [name, run] of variants) results.get(name)!.push(await run());
}
for (const [name] of variants) report(name, results.get(name)!);
const syncs: number[] = [];
for (let rep = 0; rep < REPS; rep += 1) syncs.push(await idleSync());
console.log(`onSubmittedWorkDone on an idle queue ms p50 ${median(syncs).toFixed(2)} (max ${Math.max(...syncs).toFixed(2)})`);
device.destroy();
process.exit(0);
