import { describeError } from './errors.js';

/**
 * What is wrong with a value `createEngine` resolved, in words, or `undefined`
 * when it is shaped like an `Engine`. Reading a property may run a getter that
 * throws; that is reported as the problem too.
 *
 * @example
 * engineProblem(null); // 'it resolved null'
 */
export function engineProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `it resolved ${describeValue(value)}`;
  try {
    const engine = value as Record<string, unknown>;
    const chat = engine.chat as { completions?: { create?: unknown } } | undefined;
    if (typeof chat?.completions?.create !== 'function') return 'it resolved an object without a chat.completions.create function';
    if (typeof engine.interruptGenerate !== 'function') return 'it resolved an object without an interruptGenerate function';
    // Absent (or null, which `runJob` reads the same) means no embeddings.
    const embeddings = engine.embeddings as { create?: unknown } | null | undefined;
    if (embeddings !== undefined && embeddings !== null && typeof embeddings.create !== 'function') {
      return 'its "embeddings" has no create function (leave "embeddings" out when the engine makes none)';
    }
    for (const key of ['unload', 'configure'] as const) {
      if (engine[key] !== undefined && typeof engine[key] !== 'function') return `its "${key}" is not a function`;
    }
    return undefined;
  } catch (error) {
    return `reading it threw (${describeError(error)})`;
  }
}

/** What every `createEngine` must resolve, said once for every error that needs it. */
export const ENGINE_SHAPE =
  'createEngine must resolve an engine: an object with chat.completions.create(request) and interruptGenerate(), such as webllmEngines() from @inkling/webllm or fakeEngines() from @inkling/scheduler/testing build';

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)})`;
  if (typeof value === 'function') return 'a function (return what it builds, not the builder)';
  return `a ${typeof value} (${String(value)})`;
}
