// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CallsInFlight } from '../src/engine.js';

describe('CallsInFlight', () => {
  it('stops every open call on interrupt, and only the released ones leave the set', () => {
    const calls = new CallsInFlight();
    const a = calls.open();
    const b = calls.open();
    expect(calls.size).toBe(2);
    a.release();
    expect(calls.size).toBe(1);
    calls.interrupt();
    expect(b.signal.aborted).toBe(true);
    expect(a.signal.aborted).toBe(false);
    b.release();
    b.release();
    expect(calls.size).toBe(0);
  });

  it('follows the caller’s signal until released, and no longer after', () => {
    const calls = new CallsInFlight();
    const outer = new AbortController();
    const first = calls.open(outer.signal);
    first.release();
    const second = calls.open(outer.signal);
    outer.abort();
    expect(first.signal.aborted).toBe(false);
    expect(second.signal.aborted).toBe(true);
  });

  it('starts aborted when the caller’s signal already is, and abort() stops one call alone', () => {
    const calls = new CallsInFlight();
    const done = calls.open(AbortSignal.abort());
    expect(done.signal.aborted).toBe(true);
    const one = calls.open();
    const other = calls.open();
    one.abort();
    expect([one.signal.aborted, other.signal.aborted]).toEqual([true, false]);
  });
});
