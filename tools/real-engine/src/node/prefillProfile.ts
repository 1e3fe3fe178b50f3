/**
 * Where the time to the first token goes inside WebLLM: wall-clock phases of
 * each `prefillStep` and `decodeStep` on one engine's pipeline, read by
 * wrapping the pipeline's own methods (own properties of that instance, put
 * on after the kit's prefix-reuse hooks so they time those too). Per step:
 *   encode  `embedAndForward` until it returns: the JavaScript that encodes
 *           and submits every kernel (WebGPU runs them asynchronously)
 *   wait    `device.sync()` calls outside sampling: the GPU finishing the
 *           submitted kernels (prefill waits once before it samples)
 *   sample  `sampleTokenFromLogits`: logits copied to the CPU (a submit, a
 *           map and a second sync) and the token picked
 *   other   the rest of the step (tokenising and building the prompt in a
 *           prefill, bookkeeping)
 * A diagnostic for the H200 bench (PREFIX_PROFILE=1), not shipped code.
 */

type Fn = (...args: never[]) => unknown;

export interface StepTimes {
  kind: 'prefill' | 'decode';
  total: number;
  encode: number;
  wait: number;
  sample: number;
  other: number;
  /** Kernels the step submitted (TVM's WebGPU submit counter). */
  kernels: number;
  /** Inside `sample`: the copy's submission, its sync, the penalties, picking the token (TVM's wasm). */
  parts: { copy: number; sync: number; penalty: number; pick: number };
}

export interface PrefillProfile {
  /** Steps recorded since the last `take()`, oldest first. */
  take(): StepTimes[];
}

interface ProfiledPipeline {
  prefillStep: Fn;
  decodeStep: Fn;
  embedAndForward: Fn;
  sampleTokenFromLogits: Fn;
  updateLogitsOnCPU: Fn;
  device: { sync: Fn };
  tvm: Record<string, Fn> & { lib?: { webGPUContext?: { shaderSubmitCounter?: number } } };
}

type Part = keyof StepTimes['parts'];

/** Wraps `pipeline`'s step methods; `pipeline` is WebLLM's `LLMChatPipeline` (0.2.79). */
export function profilePipeline(pipeline: unknown): PrefillProfile {
  const p = pipeline as ProfiledPipeline;
  let steps: StepTimes[] = [];
  let current: StepTimes | undefined;
  let inSample = false;

  const timed =
    (name: 'encode' | 'wait' | 'sample', original: Fn, self: unknown) =>
    async (...args: never[]) => {
      const start = performance.now();
      try {
        return await original.apply(self, args);
      } finally {
        if (current) current[name] += performance.now() - start;
      }
    };
  const counter = () => p.tvm.lib?.webGPUContext?.shaderSubmitCounter ?? Number.NaN;
  const step =
    (kind: StepTimes['kind'], original: Fn) =>
    async (...args: never[]) => {
      const record: StepTimes = {
        kind,
        total: 0,
        encode: 0,
        kernels: 0,
        wait: 0,
        sample: 0,
        other: 0,
        parts: { copy: 0, sync: 0, penalty: 0, pick: 0 },
      };
      current = record;
      const submitted = counter();
      const start = performance.now();
      try {
        return await original.apply(p, args);
      } finally {
        record.total = performance.now() - start;
        record.kernels = counter() - submitted;
        record.other = record.total - record.encode - record.wait - record.sample;
        steps.push(record);
        current = undefined;
      }
    };

  const part =
    (name: Part, original: Fn, self: unknown) =>
    (...args: never[]) => {
      const start = performance.now();
      const settle = () => {
        if (current) current.parts[name] += performance.now() - start;
      };
      const result = original.apply(self, args);
      if (result instanceof Promise) return result.finally(settle);
      settle();
      return result;
    };
  const sync = p.device.sync;
  const timedSync = timed('wait', sync, p.device);
  const sampleSync = part('sync', sync, p.device);
  p.device.sync = (...args: never[]) => (inSample ? sampleSync(...args) : timedSync(...args));
  p.updateLogitsOnCPU = part('copy', p.updateLogitsOnCPU, p);
  for (const name of ['applyPresenceAndFrequencyPenalty', 'applyRepetitionPenalty'])
    if (typeof p.tvm[name] === 'function') p.tvm[name] = part('penalty', p.tvm[name], p.tvm);
  for (const name of ['sampleTopPFromLogits', 'applySoftmaxWithTemperature', 'sampleTopPFromProb'])
    if (typeof p.tvm[name] === 'function') p.tvm[name] = part('pick', p.tvm[name], p.tvm);
  p.embedAndForward = timed('encode', p.embedAndForward, p);
  const sample = timed('sample', p.sampleTokenFromLogits, p);
  p.sampleTokenFromLogits = async (...args: never[]) => {
    inSample = true;
    try {
      return await sample(...args);
    } finally {
      inSample = false;
    }
  };
  p.prefillStep = step('prefill', p.prefillStep);
  p.decodeStep = step('decode', p.decodeStep);
  return {
    take() {
      const out = steps;
      steps = [];
      return out;
    },
  };
}
