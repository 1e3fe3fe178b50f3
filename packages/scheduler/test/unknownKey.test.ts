import { describe, expect, it } from 'vitest';
import { EnginePool, InvalidOptionError } from '../src/index.js';
import { type Rule, isString, optional, unknownKey, wholeNumber } from '../src/engine.js';
import { createFakeEngine } from '../src/testing/index.js';

describe('unknownKey', () => {
  const rules: Rule[] = [
    ['lanes', optional(wholeNumber(1)), 'a whole number, 1 or more'],
    ['baseURL', optional(isString), 'a URL'],
  ];

  it('passes keys a rule or the extra list names', () => {
    expect(unknownKey({ lanes: 2, baseURL: 'x', params: { model: 'm' }, gpu: null }, rules, 'f() ', ['gpu', 'params'])).toBeUndefined();
    expect(unknownKey({}, rules, 'f() ')).toBeUndefined();
  });

  it('passes an unknown key whose value is undefined (a spread of optional values)', () => {
    expect(unknownKey({ lane: undefined }, rules, 'f() ')).toBeUndefined();
  });

  it('names the unknown key, the close known one and every known key', () => {
    expect(unknownKey({ lanes: 2, lane: 4 }, rules, 'webllmEngines() ', ['gpu'])).toBe(
      'webllmEngines() has no option "lane" (did you mean "lanes"?): remove or rename it. Its options: lanes, baseURL, gpu.',
    );
  });

  it('suggests across letter case and swapped neighbours', () => {
    expect(unknownKey({ baseUrl: 'x' }, rules, 'f() ')).toContain('(did you mean "baseURL"?)');
    expect(unknownKey({ veiw: 1 }, rules, 'f() ', ['view'])).toContain('(did you mean "view"?)');
  });

  it('suggests nothing when no known key is close', () => {
    const problem = unknownKey({ pick: 'gpu' }, rules, 'f() ');
    expect(problem).toBe('f() has no option "pick": remove or rename it. Its options: lanes, baseURL.');
    // One edit in a three-letter key is a typo; two make another word.
    expect(unknownKey({ gpx: 1 }, rules, 'f() ', ['gpu', 'fim'])).toContain('(did you mean "gpu"?)');
    expect(unknownKey({ fum: 1, gpu: 1 }, rules, 'f() ', ['gpu', 'fix'])).not.toContain('did you mean');
    expect(unknownKey({ maxRetry: 1 }, rules, 'f() ', ['maxRetries'])).toContain('(did you mean "maxRetries"?)');
    expect(unknownKey({ model: 1 }, rules, 'f() ', ['modeSwitch'])).not.toContain('did you mean');
  });

  it('lists a field checked by two rules once', () => {
    expect(unknownKey({ x: 1 }, [...rules, ['lanes', () => true, 'x']], 'f() ')).toMatch(/options: lanes, baseURL\.$/);
  });
});

const createEngine = async () => createFakeEngine();

describe('EnginePool options', () => {
  it('refuses an unknown option with an InvalidOptionError that names it and the near option', () => {
    expect(() => new EnginePool({ createEngine, sise: 2 } as never)).toThrow(InvalidOptionError);
    expect(() => new EnginePool({ createEngine, sise: 2 } as never)).toThrow(/^EnginePool has no option "sise" \(did you mean "size"\?\)/);
    expect(() => new EnginePool({ createEngine, idleTimeout: 5 } as never)).toThrow('(did you mean "idleTimeoutMs"?)');
  });

  it('names a misspelt required option as a typo before saying it is missing', () => {
    expect(() => new EnginePool({ createEngines: createEngine } as never)).toThrow(
      'EnginePool has no option "createEngines" (did you mean "createEngine"?)',
    );
  });

  it('takes every option it documents, and unknown keys set to undefined', () => {
    const all: Required<ConstructorParameters<typeof EnginePool>[0]> = {
      createEngine,
      size: 1,
      growWhenLanesFull: false,
      onStateChange: () => {},
      idleTimeoutMs: 10,
      stallTimeoutMs: 10,
      resumeDelayMs: 10,
      schedule: 'fifo',
      historySize: 1,
      timers: { setTimeout, clearTimeout },
      now: () => 0,
      scheduleNotify: (flush) => flush(),
    };
    expect(() => new EnginePool({ ...all, extra: undefined } as never)).not.toThrow();
  });
});
