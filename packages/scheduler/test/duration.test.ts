import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../src/index.js';
import { MAX_TIMER_MS, checkDuration } from '../src/engine.js';

describe('checkDuration', () => {
  it.each([0, 1, 1500, MAX_TIMER_MS, undefined])('accepts %s', (value) => {
    expect(() => checkDuration(value, 'x "ms"')).not.toThrow();
  });

  it('accepts Infinity as "never" unless the option forbids it', () => {
    expect(() => checkDuration(Number.POSITIVE_INFINITY, 'x "ms"')).not.toThrow();
    expect(() => checkDuration(Number.POSITIVE_INFINITY, 'x "ms"', { never: false })).toThrow(InvalidOptionError);
  });

  it.each([
    [-1, /got -1/],
    [MAX_TIMER_MS + 1, /got 2147483648/],
    [Number.NaN, /got NaN/],
    [Number.NEGATIVE_INFINITY, /got -Infinity/],
    ['100', /got "100"/],
    [null, /got null/],
    [10n, /got 10n/],
  ])('rejects %s with an error naming the option and the value', (value, got) => {
    expect(() => checkDuration(value, 'EnginePool "idleTimeoutMs"')).toThrow(InvalidOptionError);
    expect(() => checkDuration(value, 'EnginePool "idleTimeoutMs"')).toThrow(/EnginePool "idleTimeoutMs" must be a number of milliseconds/);
    expect(() => checkDuration(value, 'EnginePool "idleTimeoutMs"')).toThrow(got);
  });
});
