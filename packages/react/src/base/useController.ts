import { useEffect, useState, useSyncExternalStore } from 'react';
import { type InklingContextValue, useInklingContext } from './poolContext.js';

/**
 * What a binding hook drives: an external store that takes its options
 * object whole. Its subscription is its lifecycle: the first listener starts
 * it, the last one leaving stops it (see `Store`).
 */
export interface BoundController<S, O> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): S;
  setOptions(options: O): void;
}

/** A controller and the provider values it was built for. */
interface Binding<C> {
  readonly context: InklingContextValue;
  readonly controller: C;
}

/** Whether a controller built for `a` can serve `b`: same pool, model and cache. */
function sameBinding(a: InklingContextValue, b: InklingContextValue): boolean {
  return a.pool === b.pool && a.modelId === b.modelId && a.queryClient === b.queryClient;
}

/**
 * The one binding hook every controller hook uses, in three moves: build the
 * controller from the options (again when the provider's pool, model id or
 * cache changes, the old one's work cancelled as its last listener leaves),
 * subscribe with `useSyncExternalStore` (which is also what starts and stops
 * it), and hand it the options object whole after every render. Building
 * does no work.
 *
 * @example
 * const [completion, state] = useController('useCompletion', options, ({ pool, scheduleFrame }, o) =>
 *   new CompletionController(pool, o, scheduleFrame),
 * );
 */
export function useController<O, C extends BoundController<unknown, O>>(
  hook: string,
  options: O,
  create: (context: InklingContextValue, options: O) => C,
): readonly [C, ReturnType<C['getSnapshot']>] {
  const context = useInklingContext(hook);
  const bind = (): Binding<C> => ({ context, controller: create(context, options) });
  const [binding, setBinding] = useState(bind);
  let current = binding;
  if (!sameBinding(binding.context, context)) {
    // Another pool: a controller for it, in this very render (React's
    // "adjusting state when a prop changes"), so no job reaches the old one.
    current = bind();
    setBinding(current);
  }
  const { controller } = current;
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot) as ReturnType<C['getSnapshot']>;
  useEffect(() => {
    controller.setOptions(options);
  });
  return [controller, state];
}
