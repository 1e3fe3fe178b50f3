import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePartialJson } from '../../src/object/core/partialJson.js';

/** Whether `partial` is a state the stream could show on its way to `final`. */
function grows(partial: unknown, final: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (Array.isArray(final)) {
    if (!Array.isArray(partial) || partial.length > final.length) return false;
    return partial.every((item, i) => (i < partial.length - 1 ? same(item, final[i]) : grows(item, final[i])));
  }
  if (typeof final === 'object' && final !== null) {
    if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) return false;
    return Object.keys(partial).every(
      (key) => Object.hasOwn(final, key) && grows((partial as Record<string, unknown>)[key], (final as Record<string, unknown>)[key]),
    );
  }
  return Object.is(partial, final);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const texts = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 2, '\t'))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

describe('parsePartialJson', () => {
  it('shows only states that grow towards the final value, and the final value once whole', { timeout: 30_000 }, () => {
    fc.assert(
      fc.property(texts, (text) => {
        const final: unknown = JSON.parse(text);
        let before: unknown;
        for (let end = 0; end < text.length; end += 1) {
          const { value } = parsePartialJson(text.slice(0, end));
          expect(grows(value, final)).toBe(true);
          // Each state also grows from the one before: nothing shown is ever taken back.
          expect(grows(before, value ?? before)).toBe(true);
          before = value;
        }
        const whole = parsePartialJson(text);
        // A bare number may still go on ("1" can become "12"): only the end of the stream says it is whole.
        if (typeof final === 'number') return;
        expect(whole.complete).toBe(true);
        expect(whole.value).toStrictEqual(final);
      }),
      { numRuns: 150 },
    );
  });

  it('agrees with JSON.parse on any text it calls complete, and rejects what can never be JSON', () => {
    fc.assert(
      fc.property(texts, fc.nat(), fc.string({ maxLength: 3 }), (text, at, insert) => {
        const i = text.length === 0 ? 0 : at % text.length;
        const broken = text.slice(0, i) + insert + text.slice(i);
        let full: { value: unknown } | undefined;
        try {
          full = { value: JSON.parse(broken) };
        } catch {
          full = undefined;
        }
        let verdict: string;
        try {
          const partial = parsePartialJson(broken);
          if (partial.complete)
            verdict =
              JSON.stringify(partial.value) === JSON.stringify(full?.value) && full !== undefined
                ? 'ok'
                : 'complete but not what JSON.parse reads';
          // Not complete: the text must be unfinished JSON (or a bare number that may go on).
          else verdict = full === undefined || typeof full.value === 'number' ? 'ok' : 'incomplete though JSON.parse reads it';
        } catch (error) {
          verdict = error instanceof SyntaxError && full === undefined ? 'ok' : 'threw on JSON.parse-able text';
        }
        expect(verdict).toBe('ok');
      }),
      { numRuns: 1000 },
    );
  });

  it('never shows half an escape, half a surrogate pair, or a number still arriving', () => {
    expect(parsePartialJson('{"a": "x\\').value).toEqual({ a: 'x' });
    expect(parsePartialJson('{"a": "x\\u00').value).toEqual({ a: 'x' });
    expect(parsePartialJson('{"a": "x\\\\').value).toEqual({ a: 'x\\' });
    expect(parsePartialJson('["\\ud83d').value).toEqual(['']);
    expect(parsePartialJson('["\\ud83d\\ude00"').value).toEqual(['😀']);
    expect(parsePartialJson('{"n": 12').value).toEqual({});
    expect(parsePartialJson('{"n": 12,').value).toEqual({ n: 12 });
    expect(parsePartialJson('[tr').value).toEqual([]);
    expect(parsePartialJson('{"__proto__": 1}').value).toStrictEqual(JSON.parse('{"__proto__": 1}'));
  });
});
