// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { mergeProps } from '../src/base/mergeProps.js';

describe('mergeProps', () => {
  it('runs every bag’s handlers in order, joins class names, merges styles, and lets the last defined value win', () => {
    const calls: string[] = [];
    const merged = mergeProps<Record<string, unknown>>(
      { onKeyDown: () => calls.push('caller'), className: 'a', style: { color: 'red', margin: 0 }, id: 'x', title: 'kept' },
      undefined,
      { onKeyDown: () => calls.push('hook'), className: 'b', style: { color: 'blue' }, id: 'y', title: undefined },
    );
    (merged.onKeyDown as () => void)();
    expect(calls).toEqual(['caller', 'hook']);
    expect(merged).toMatchObject({ className: 'a b', style: { color: 'blue', margin: 0 }, id: 'y', title: 'kept' });
  });

  it('passes the event to each handler and leaves a lone handler as it is', () => {
    const only = vi.fn();
    const merged = mergeProps<{ onClick: (e: string) => void }>({ onClick: only });
    expect(merged.onClick).toBe(only);
    const second = vi.fn();
    mergeProps<{ onClick: (e: string) => void }>({ onClick: only }, { onClick: second }).onClick('event');
    expect(second).toHaveBeenCalledWith('event');
  });
});
