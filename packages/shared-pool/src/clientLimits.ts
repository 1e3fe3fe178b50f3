import { InvalidOptionError } from '@inkling/scheduler';
import { type Rule, firstProblem, isObject, optional, unknownKey, wholeNumber } from '@inkling/scheduler/engine';

/**
 * What a host takes from one client, at most. A client is another tab, or
 * in an extension another site's content script: its messages are untrusted
 * input, bounded once where they enter (`ServedClient`) so that one client's
 * oversized or endless requests are refused to that client alone and never
 * slow the others.
 *
 * @example
 * new PoolHost(pool, { limits: { maxJobsPerClient: 500 } });
 */
export interface ClientLimits {
  /** Characters of a job's `id`, `session` or `task`, a `cancel()` key and the client's lock name. Default `256`. */
  maxKeyLength?: number;
  /** Entries of a chat's `params.messages` (or an embedding's `params.input` list). Default `1000`. */
  maxMessages?: number;
  /**
   * Characters of every string in a job spec together (the prompt, keys
   * included), and in the settings a client sends (`configure()`). Default
   * `1048576` (1 Mi).
   */
  maxSpecChars?: number;
  /** Jobs of one client queued or running at once. Default `10000`. */
  maxJobsPerClient?: number;
}

/** `ClientLimits` with every default filled in. */
export type ResolvedClientLimits = Readonly<Required<ClientLimits>>;

/** Deeper than this, a spec is refused: plain request data is a few levels deep. */
const MAX_DEPTH = 32;

const RULES: readonly Rule[] = [
  ['limits', optional(isObject), 'an object such as { maxJobsPerClient: 500 }'],
  ['limits.maxKeyLength', optional(wholeNumber(1)), 'a whole number of characters, 1 or more'],
  ['limits.maxMessages', optional(wholeNumber(1)), 'a whole number, 1 or more'],
  ['limits.maxSpecChars', optional(wholeNumber(1)), 'a whole number of characters, 1 or more'],
  ['limits.maxJobsPerClient', optional(wholeNumber(1)), 'a whole number, 1 or more'],
];

/**
 * The limits with their defaults, or an `InvalidOptionError` saying which is
 * wrong or not a limit.
 *
 * @example
 * clientLimits({ maxKeyLength: 64 }).maxMessages; // 1000
 */
export function clientLimits(limits: ClientLimits | undefined): ResolvedClientLimits {
  const problem =
    firstProblem({ limits }, RULES, 'PoolHost ') ??
    unknownKey({ ...limits }, [], 'PoolHost "limits" ', ['maxKeyLength', 'maxMessages', 'maxSpecChars', 'maxJobsPerClient']);
  if (problem) throw new InvalidOptionError(problem);
  return Object.freeze({
    maxKeyLength: limits?.maxKeyLength ?? 256,
    maxMessages: limits?.maxMessages ?? 1000,
    maxSpecChars: limits?.maxSpecChars ?? 1_048_576,
    maxJobsPerClient: limits?.maxJobsPerClient ?? 10_000,
  });
}

/**
 * A key a client sent that is over `maxKeyLength`, as a sentence; undefined
 * when it is within it (or not a string: the pool's own checks answer that).
 */
export function longKey(field: string, value: unknown, limits: ResolvedClientLimits): string | undefined {
  if (typeof value !== 'string' || value.length <= limits.maxKeyLength) return undefined;
  return `The job's "${field}" has ${value.length} characters; this shared pool takes at most ${limits.maxKeyLength} (PoolHost "limits.maxKeyLength"). Use a short name.`;
}

/**
 * Why a job spec from a client is over the host's limits, or undefined when
 * it is within them. Walks the spec once and stops as soon as it is over, so
 * an ordinary prompt costs a few microseconds and a huge one no more than
 * its first `maxSpecChars` characters.
 */
export function overLimits(spec: Record<string, unknown>, limits: ResolvedClientLimits): string | undefined {
  for (const field of ['id', 'session', 'task'] as const) {
    const problem = longKey(field, spec[field], limits);
    if (problem) return problem;
  }
  const params = spec.params as Record<string, unknown> | undefined;
  const list = Array.isArray(params?.messages) ? params.messages : Array.isArray(params?.input) ? params.input : undefined;
  if (list && list.length > limits.maxMessages) {
    return `The job has ${list.length} messages; this shared pool takes at most ${limits.maxMessages} (PoolHost "limits.maxMessages").`;
  }
  return tooBig(spec, limits.maxSpecChars);
}

/**
 * Why the settings a client sends (`configure()`) are over the host's limits
 * (more text than `maxSpecChars`, or deeper than a spec may be), or undefined.
 */
export function settingsTooBig(patch: unknown, limits: ResolvedClientLimits): string | undefined {
  return tooBig(patch, limits.maxSpecChars)?.replace('job spec', 'settings');
}

/** Whether the strings of `value` add up to more than `budget` characters, or it nests deeper than `MAX_DEPTH`. */
function tooBig(value: unknown, budget: number): string | undefined {
  let left = budget;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item === 'string') left -= item.length;
    else if (typeof item === 'object' && item !== null) {
      if (depth >= MAX_DEPTH) return `The job spec nests deeper than ${MAX_DEPTH} levels; a request is plain data a few levels deep.`;
      for (const [key, child] of Object.entries(item)) {
        left -= key.length;
        stack.push([child, depth + 1]);
      }
    }
    if (left < 0) {
      return `The job spec holds more than ${budget} characters of text; this shared pool takes at most that (PoolHost "limits.maxSpecChars"). Send a shorter prompt.`;
    }
  }
  return undefined;
}
