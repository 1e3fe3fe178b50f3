import { describeError } from './errors.js';
import { show } from './rules.js';
import type { Engine } from './types.js';

const noop = (): void => {};

/**
 * What is wrong with a value `createEngine` resolved, in words, or `undefined`
 * when it is shaped like an `Engine`. Reading a property may run a getter that
 * throws; that is reported as the problem too.
 *
 * @example
 * engineProblem(null); // 'it resolved null'
 * engineProblem({ chat: {} }); // 'its "chat.completions.create" is not a function'
 */
export function engineProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `it resolved ${show(value)}`;
  try {
    const engine = value as Partial<Engine>;
    const members: Record<string, unknown> = {
      'chat.completions.create': engine.chat?.completions?.create,
      interruptGenerate: engine.interruptGenerate,
      // The rest are optional. Embeddings may also be null, which the pool reads as absent.
      'embeddings.create': engine.embeddings == null ? noop : engine.embeddings.create,
      unload: engine.unload === undefined ? noop : engine.unload,
      configure: engine.configure === undefined ? noop : engine.configure,
    };
    const broken = Object.keys(members).find((name) => typeof members[name] !== 'function');
    return broken && `its "${broken}" is not a function`;
  } catch (error) {
    return `reading it threw (${describeError(error)})`;
  }
}

/** What every `createEngine` must resolve, said once for every error that needs it. */
export const ENGINE_SHAPE = 'createEngine must resolve an engine: an object with chat.completions.create(request) and interruptGenerate()';
