/** A prop bag: what a behaviour hook or its caller puts on an element. */
type PropBag = Readonly<Record<string, unknown>>;

const HANDLER = /^on[A-Z]/;

/**
 * Merges prop bags for one element, left to right: event handlers (`onX`)
 * from every bag all run, in that order; `className`s are joined; `style`s
 * are merged (later keys win); any other prop takes the last defined value.
 * So a behaviour hook adds its handlers to the caller's instead of chaining
 * each by hand.
 *
 * @example
 * <textarea {...mergeProps(props, { onKeyDown: handleKey, onFocus: () => setFocused(true) })} />
 */
export function mergeProps<T extends object>(...bags: ReadonlyArray<PropBag | T | undefined>): T {
  const merged: Record<string, unknown> = {};
  for (const bag of bags) {
    if (!bag) continue;
    for (const [key, value] of Object.entries(bag)) {
      if (value === undefined) continue;
      const before = merged[key];
      if (HANDLER.test(key) && typeof before === 'function' && typeof value === 'function') {
        merged[key] = chain(before as (...args: unknown[]) => void, value as (...args: unknown[]) => void);
      } else if (key === 'className' && typeof before === 'string' && typeof value === 'string') {
        merged[key] = `${before} ${value}`;
      } else if (key === 'style' && typeof before === 'object' && before !== null && typeof value === 'object' && value !== null) {
        merged[key] = { ...before, ...value };
      } else {
        merged[key] = value;
      }
    }
  }
  return merged as T;
}

function chain(first: (...args: unknown[]) => void, second: (...args: unknown[]) => void): (...args: unknown[]) => void {
  return (...args) => {
    first(...args);
    second(...args);
  };
}
