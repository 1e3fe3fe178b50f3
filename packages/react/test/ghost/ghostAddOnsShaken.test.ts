// @vitest-environment node
import { expect, it } from 'vitest';
import { appBundle } from './appBundle.js';

const bundle = async (names: string): Promise<string> => (await appBundle(names)).code;

// Strings only the add-ons' modules hold: the event tracker, the pause, the debounce tuner, the length.
const ADD_ON_MARKS = ['typedThrough', 'caretMoved', 'afterRejections', 'keyGap', 'minTokens'];

it('ghost text without events, pause, adaptive debounce or length ships none of their code', async () => {
  for (const names of ['PoolProvider, useGhostText', 'PoolProvider, GhostTextarea']) {
    const code = await bundle(names);
    expect(code).toContain('quietEnded'); // the machine is there
    expect(ADD_ON_MARKS.filter((mark) => code.includes(mark))).toEqual([]);
  }
  const withAddOns = await bundle('useGhostText, ghostEvents, pauseAfterRejections, adaptiveDebounce, adaptiveLength');
  expect(ADD_ON_MARKS.filter((mark) => withAddOns.includes(mark))).toEqual(ADD_ON_MARKS);
});
