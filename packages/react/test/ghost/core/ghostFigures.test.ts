// @vitest-environment node
import { expect, it } from 'vitest';
import { GhostFigures } from '../../../src/ghost/core/ghostFigures.js';
import type { GhostTextEvent } from '../../../src/ghost/core/ghostTextEvent.js';

const labels = { session: 's', model: 'qwen', promptBuilder: 'defaultGhostParams' };
const shown = (suggestion: number, characters: number, firstGlyphMs: number, source: 'engine' | 'cache' | 'speculation' = 'engine') =>
  ({ ...labels, type: 'shown', suggestion, source, characters, firstGlyphMs, wholeMs: firstGlyphMs + 10 }) as const;

it('gives acceptance by characters and by suggestions, first-glyph percentiles and the share served without an engine call', () => {
  const figures = new GhostFigures();
  expect(figures.getSnapshot()).toEqual([]);
  const events: GhostTextEvent[] = [
    shown(1, 10, 100),
    { ...labels, type: 'accepted', suggestion: 1, how: 'word', characters: 4 },
    { ...labels, type: 'accepted', suggestion: 1, how: 'all', characters: 6 },
    shown(2, 8, 300),
    { ...labels, type: 'typedThrough', suggestion: 2, characters: 3 },
    { ...labels, type: 'rejected', suggestion: 2, reason: 'typedOver', characters: 5 },
    shown(3, 2, 0, 'cache'),
    { ...labels, type: 'accepted', suggestion: 3, how: 'all', characters: 2 },
    shown(4, 20, 200, 'speculation'),
    { ...labels, type: 'rejected', suggestion: 4, reason: 'escape', characters: 20 },
    { ...labels, type: 'superseded', suggestion: 5 },
    { ...labels, type: 'failed', suggestion: 6, error: null },
    { ...labels, promptBuilder: 'mine', type: 'superseded', suggestion: 7 },
  ];
  for (const event of events) figures.record(event);
  const [qwen, mine] = figures.getSnapshot();
  expect(qwen).toEqual({
    model: 'qwen',
    promptBuilder: 'defaultGhostParams',
    shown: 4,
    accepted: 2,
    rejected: 2,
    superseded: 1,
    failed: 1,
    shownCharacters: 40,
    acceptedCharacters: 12,
    acceptanceByCharacters: 12 / 40,
    acceptanceBySuggestions: 2 / 4,
    firstGlyphP50: 100,
    firstGlyphP95: 300,
    withoutEngineCall: 2 / 4,
  });
  expect(mine).toMatchObject({ promptBuilder: 'mine', shown: 0, superseded: 1, acceptanceByCharacters: null, firstGlyphP50: null });
  expect(figures.getSnapshot()).toBe(figures.getSnapshot()); // the same array until something changes
  figures.reset();
  expect(figures.getSnapshot()).toEqual([]);
});
