// @vitest-environment node
import { expect, it } from 'vitest';
import { SuggestionCache } from '../../../src/ghost/core/suggestionCache.js';

const at = (before: string, after = '') => ({ before, after });
const keyOf = (context: { before: string; after: string }) => `k:${context.before}|${context.after}`;
const always = () => true;

it('finds a reply by its request, and the one a text types through', () => {
  const cache = new SuggestionCache();
  cache.put(keyOf(at('The')), at('The'), ' quick fox');
  expect(cache.find(at('The'), keyOf, always)).toEqual({ before: 'The', after: '', raw: ' quick fox' });
  expect(cache.find(at('The qu'), keyOf, always)).toEqual({ before: 'The', after: '', raw: ' quick fox' });
  expect(cache.find(at('The qu', '!'), keyOf, always)).toBeUndefined(); // other text after the caret
  expect(cache.find(at('Thy qu'), keyOf, always)).toBeUndefined(); // other text before it
  expect(cache.find(at('The qu'), keyOf, () => false)).toBeUndefined();
});

it('answers only for the request its key names: a text whose request differs gets nothing', () => {
  const cache = new SuggestionCache();
  cache.put('prompt-1', at('The'), ' fox');
  // Same text, but the request built now is another one (another prompt): no hit.
  expect(cache.find(at('The'), () => 'prompt-2', always)).toBeUndefined();
  expect(cache.find(at('The f'), () => 'prompt-2', always)).toBeUndefined();
  expect(cache.find(at('The'), () => undefined, always)).toBeUndefined();
});

it('keeps at most `entries` replies, dropping the least recently used', () => {
  const cache = new SuggestionCache({ entries: 2 });
  cache.put('a', at('a'), ' 1');
  cache.put('b', at('b'), ' 2');
  expect(cache.find(at('a'), () => 'a', always)?.raw).toBe(' 1'); // a is now the most recent
  cache.put('c', at('c'), ' 3');
  expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
  expect(cache.size).toBe(2);
});

it('keeps at most `bytes`, counting key and reply, never the whole note', () => {
  const cache = new SuggestionCache({ bytes: 200 });
  const note = 'x'.repeat(50_000);
  cache.put('k1', at(note), ' one two');
  expect(cache.bytes).toBeLessThan(200);
  cache.put('k2', at(note), ' three four');
  cache.put('k3', at(note), ' five six');
  expect(cache.bytes).toBeLessThanOrEqual(200);
  expect(cache.has('k1')).toBe(false);
  cache.put('huge', at('a'), 'y'.repeat(500)); // larger than the whole budget: not kept, nothing else lost
  expect(cache.has('huge')).toBe(false);
  expect(cache.has('k3')).toBe(true);
  cache.clear();
  expect([cache.size, cache.bytes]).toEqual([0, 0]);
});
