// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/** The minified bundle of an app that imports `names` from @inkling/react (its peers left out). */
async function bundle(names: string): Promise<string> {
  const result = await build({
    stdin: { contents: `import { ${names} } from ${JSON.stringify(entry)}; console.log(${names});`, resolveDir: '.', loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@inkling/source'],
    external: ['react', 'react-dom', '@tanstack/react-query'],
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

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
