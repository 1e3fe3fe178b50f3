import { describe, expect, it } from 'vitest';
import { cacheSessionOf, speculativeSession } from '../src/engine.js';

describe('a speculative session and the cache it uses', () => {
  it("a speculation's session is its own, and its cache is its editor's", () => {
    expect(speculativeSession('editor-a')).toBe('editor-a:next');
    expect(speculativeSession('editor-a')).not.toBe('editor-a');
    expect(cacheSessionOf(speculativeSession('editor-a'))).toBe('editor-a');
  });

  it('any other session is its own cache, a colon elsewhere included', () => {
    for (const session of ['editor-a', 'doc:3', 'next', ':nexted', 'a:next:b']) expect(cacheSessionOf(session)).toBe(session);
  });
});
