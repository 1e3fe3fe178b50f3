import { InvalidOptionError, PRIORITY_ORDER, type Priority } from '@inkling/scheduler';
import { type Rule, firstProblem, isObject, isString, optional } from '@inkling/scheduler/engine';

/** The number (or header text) each band is sent as. */
export type PriorityMap = Readonly<Record<Priority, number>>;

/**
 * Where a server reads a request's priority, and what each band is sent as:
 * a body field (a dotted path makes nested objects: `'nvext.agent_hints.priority'`)
 * or a header.
 *
 * @example
 * const custom: PriorityMapping = { header: 'x-priority', map: { interactive: 0, high: 1, normal: 2, low: 3 } };
 */
export type PriorityMapping =
  | { readonly field: string; readonly header?: undefined; readonly map: PriorityMap }
  | { readonly header: string; readonly field?: undefined; readonly map: PriorityMap };

/** A preset's name, or a mapping of your own. */
export type ServerPriority = 'vllm' | 'sglang' | 'dynamo' | PriorityMapping;

/**
 * The presets, each as its server documents the field, and the releases it
 * is for:
 *
 * - `vllm` (vLLM 0.6.3 and later, the first with priority scheduling): body
 *   `priority`, an integer, **lower runs first**, default `0`; any value but
 *   `0` is an error unless the server runs `--scheduling-policy priority`.
 *   `normal` is sent as that default, so the pool's batch ranks level with
 *   other clients that send nothing.
 * - `sglang` (SGLang releases with `--enable-priority-scheduling`, added in
 *   September 2025): body `priority`, **higher runs first** (without
 *   `--schedule-low-priority-values-first`); a queued request preempts a
 *   running one only when its priority is more than
 *   `--priority-scheduling-preemption-threshold` (default 10) higher, so the
 *   bands are 11 apart. A request without a priority ranks below all of these.
 * - `dynamo` (Dynamo 1.1.0 and later): body `nvext.agent_hints.priority`,
 *   **higher runs first** at Dynamo's API, which turns it into each
 *   backend's own order (it negates it for vLLM); spaced as `sglang`, since
 *   Dynamo may pass it to SGLang. **Not for Dynamo before 1.1.0**: those
 *   releases forwarded the number unchanged to the worker, where vLLM (and
 *   SGLang started with `--schedule-low-priority-values-first`, as they
 *   advised) runs lower first, so this preset would put ghost text last.
 *   There, send vLLM's order in Dynamo's field:
 *   `{ field: 'nvext.agent_hints.priority', map: PRIORITY_PRESETS.vllm.map }`.
 *
 * @example
 * PRIORITY_PRESETS.vllm.map.interactive; // -2
 * // Dynamo before 1.1.0 in front of vLLM workers:
 * openaiEngines({ baseURL, model, priority: { field: 'nvext.agent_hints.priority', map: PRIORITY_PRESETS.vllm.map } });
 */
export const PRIORITY_PRESETS = {
  vllm: { field: 'priority', map: { interactive: -2, high: -1, normal: 0, low: 1 } },
  sglang: { field: 'priority', map: { interactive: 33, high: 22, normal: 11, low: 0 } },
  dynamo: { field: 'nvext.agent_hints.priority', map: { interactive: 33, high: 22, normal: 11, low: 0 } },
} as const satisfies Record<string, PriorityMapping>;

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A body field path: names of letters, digits and `_`, joined by dots. */
const FIELD_PATH = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/;

/** The first band `map` gives no finite number for. */
const missingBand = (map: unknown): Priority | undefined =>
  PRIORITY_ORDER.find((band) => !Number.isFinite((map as PriorityMap | undefined)?.[band]));

/** A `priority` mapping (not a preset name), checked in this order. */
const PRIORITY_RULES: readonly Rule[] = [
  ['priority', isObject, 'a preset name or { field | header, map }'],
  [
    'priority',
    (option) => ((option as PriorityMapping).field === undefined) !== ((option as PriorityMapping).header === undefined),
    () => 'needs exactly one of "field" (a body field) and "header" (a header name).',
  ],
  [
    'priority.field',
    optional((field) => isString(field) && FIELD_PATH.test(field)),
    "a field name or a dotted path such as 'nvext.agent_hints.priority'",
  ],
  ['priority.header', optional((header) => isString(header) && HEADER_NAME.test(header)), "a header name such as 'x-request-priority'"],
  [
    'priority.map',
    (map) => !missingBand(map),
    (map) => {
      const band = missingBand(map) as Priority;
      return `must give a finite number for every band (interactive, high, normal, low); "${band}" is ${String((map as PriorityMap | undefined)?.[band])}.`;
    },
  ],
];

/**
 * The mapping for the `priority` option, checked; `undefined` when it is off.
 * Throws an `InvalidOptionError` that says what is wrong.
 *
 * @example
 * resolvePriority('sglang')?.map.interactive; // 33
 */
export function resolvePriority(option: ServerPriority | undefined): PriorityMapping | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'string') {
    if (Object.hasOwn(PRIORITY_PRESETS, option)) return PRIORITY_PRESETS[option];
    throw new InvalidOptionError(
      `openaiEngines() "priority" must be 'vllm', 'sglang', 'dynamo' or { field | header, map }; it got ${JSON.stringify(option)}.`,
    );
  }
  const problem = firstProblem({ priority: option }, PRIORITY_RULES, 'openaiEngines() ');
  if (problem) throw new InvalidOptionError(problem);
  return option;
}

/**
 * Writes `value` at the dotted `path` of `body`, making the objects on the
 * way (and keeping what the job's params already put there).
 *
 * @example
 * setPath(body, 'nvext.agent_hints.priority', 33);
 */
export function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const names = path.split('.');
  let at = body;
  for (const name of names.slice(0, -1)) {
    const next = at[name];
    const copy: Record<string, unknown> = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as object) } : {};
    at[name] = copy;
    at = copy;
  }
  at[names.at(-1)!] = value;
}
