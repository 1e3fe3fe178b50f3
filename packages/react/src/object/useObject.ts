import type { ChatCompletionRequest, JobResult } from '@inkling/scheduler';
import { useMemo } from 'react';
import { type ObjectOptions, type ObjectState, ObjectController } from './core/objectController.js';
import type { InferObject, ObjectSchema } from './core/objectSchema.js';
import { useController } from '../base/useController.js';

/** Options of `useObject`: the controller's, plus error-boundary opt-in. */
export interface UseObjectOptions<S extends ObjectSchema> extends ObjectOptions<S> {
  /** Throw the error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** What `useObject` returns. */
export interface UseObjectResult<T> extends ObjectState<T> {
  /** Asks for the object (a prompt, or a request), cancelling the job before. Never rejects. */
  submit(input: string | ChatCompletionRequest): Promise<JobResult | undefined>;
  /** Cancels the running job; `object` keeps what had streamed. */
  stop(): void;
  /** Cancels the running job and empties the state. */
  clear(): void;
}

/**
 * Structured output, named and shaped as in the AI SDK: `submit()` a prompt
 * and watch `object` grow as the engine streams it, constrained to `schema`
 * by the engine's own decoding (llama.cpp's grammar, WebLLM's xgrammar, a
 * server's `json_schema`); once `done`, `object` is validated. The schema is
 * a JSON Schema or a zod / arktype / valibot schema. Unmounting cancels the
 * job.
 *
 * @example
 * const Actions = z.object({ items: z.array(z.object({ task: z.string(), owner: z.string().optional() })) });
 * const { object, status, error, submit } = useObject({ schema: Actions, priority: 'low', session: 'actions', preemptible: true });
 * useEffect(() => void submit(`List the action items in this note:\n${note}`), [note]);
 * <ul>{object?.items?.map((item, i) => <li key={i}>{item?.task}</li>)}</ul>
 * {error && <p role="alert">{error.message}</p>}
 */
export function useObject<S extends ObjectSchema>(options: UseObjectOptions<S>): UseObjectResult<InferObject<S>> {
  const [controller, state] = useController(
    'useObject',
    options as ObjectOptions,
    ({ pool, scheduleFrame }, initial) => new ObjectController<InferObject<S>>(pool, initial, scheduleFrame),
  );
  if (options.throwOnError && state.error) throw state.error;
  return useMemo(
    () => ({ ...(state as ObjectState<InferObject<S>>), submit: controller.submit, stop: controller.stop, clear: controller.clear }),
    [state, controller],
  );
}
