import { describe, expect, it } from 'vitest';
import {
  type Rule,
  MAX_TIMER_MS,
  checkDuration,
  durationRule,
  firstProblem,
  isBoolean,
  isString,
  isTimers,
  oneOf,
  optional,
  wholeNumber,
} from '../src/engine.js';

describe('rule tables', () => {
  const rules: Rule[] = [
    ['size', optional(wholeNumber(1, 4)), 'a whole number from 1 to 4'],
    ['fim', optional(oneOf('completions', 'infill')), "'completions' or 'infill'"],
    ['apiKey', optional(isString), () => 'must be a string.'],
    ['apiKey', (key) => typeof key !== 'string' || !key.includes('\n'), () => 'holds a line break.'],
    ['flag', optional(isBoolean), 'true or false'],
    ['timers', optional(isTimers), 'an object with setTimeout and clearTimeout'],
    durationRule('waitMs'),
    durationRule('delayMs', { never: false }),
  ];

  it('passes values that keep every rule, and fields left out', () => {
    expect(firstProblem({}, rules, 'x() ')).toBeUndefined();
    const timers = { setTimeout: () => 0, clearTimeout: () => {} };
    expect(
      firstProblem({ size: 2, fim: 'infill', apiKey: 'k', flag: false, timers, waitMs: Infinity, delayMs: 0 }, rules, 'x() '),
    ).toBeUndefined();
  });

  it('names the first broken rule, in table order, with what it got', () => {
    expect(firstProblem({ size: 9, fim: 'suffix' }, rules, 'x() ')).toBe('x() "size" must be a whole number from 1 to 4; it got 9.');
    expect(firstProblem({ fim: 'suffix' }, rules, 'x() ')).toBe(`x() "fim" must be 'completions' or 'infill'; it got "suffix".`);
    expect(firstProblem({ flag: 'no' }, rules, 'x() ')).toBe('x() "flag" must be true or false; it got "no".');
    expect(firstProblem({ timers: { setTimeout: () => 0 } }, rules, 'x() ')).toMatch(/^x\(\) "timers" must be an object with/);
  });

  it('says its own words, and never the value, where want is a function', () => {
    expect(firstProblem({ apiKey: 42 }, rules, 'x() ')).toBe('x() "apiKey" must be a string.');
    expect(firstProblem({ apiKey: 'sk-secret\n' }, rules, 'x() ')).toBe('x() "apiKey" holds a line break.');
  });

  it('checks durations: Infinity only where "never" is allowed, nothing past what a timer honours', () => {
    expect(firstProblem({ delayMs: Infinity }, rules, 'x() ')).toBe(
      'x() "delayMs" must be a number of milliseconds from 0 to 2147483647 (timers cannot wait longer); it got Infinity.',
    );
    expect(firstProblem({ waitMs: 2 ** 31 }, rules, 'x() ')).toMatch(/"waitMs" .*, or Infinity for "never"; it got 2147483648\.$/);
    expect(firstProblem({ waitMs: { ms: 1 } }, rules, 'x() ')).toMatch(/it got \{"ms":1\}\.$/);
  });

  it.each([0, 5, MAX_TIMER_MS, MAX_TIMER_MS + 1, -1, Infinity, -Infinity, Number.NaN, '100', null, undefined])(
    'durationRule and checkDuration agree on %s, in the same words',
    (value) => {
      for (const never of [true, false]) {
        const problem = firstProblem({ ms: value }, [durationRule('ms', { never })], 'x ');
        let thrown: string | undefined;
        try {
          checkDuration(value, 'x "ms"', { never });
        } catch (error) {
          thrown = (error as Error).message;
        }
        expect(problem).toBe(thrown);
      }
    },
  );
});
