// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/** The source files of the kit that end up in the minified bundle of an app importing `names` (peers left out). */
async function shipped(names: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `import { ${names} } from ${JSON.stringify(entry)}; console.log(${names});`, resolveDir: '.', loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@inkling/source'],
    external: ['react', 'react-dom', '@tanstack/react-query'],
    metafile: true,
    logLevel: 'error',
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file.replace(/^.*?packages\//, ''))
    .filter((file) => !file.startsWith('<'));
}

// Structured output (schemas, JSON checks, partial objects), model storage, and tool calls.
const NOT_FOR_GHOST_TEXT = [/\/object\//, /[jJ]son/, /[sS]chema/, /responseFormat/, /[sS]torage/, /modelLock/, /[tT]ool/];

it('an app that uses only GhostTextarea ships ghost text, the provider and the pool, and no structured output, storage or tool code', async () => {
  const files = await shipped('EnginePool, PoolProvider, GhostTextarea');
  expect(files).toContain('react/src/ghost/core/ghostMachine.ts');
  expect(files).toContain('scheduler/src/enginePool.ts');
  expect(files.filter((file) => file.startsWith('react/') && !/^react\/src\/(ghost|base)\//.test(file))).toEqual([]);
  expect(files.filter((file) => NOT_FOR_GHOST_TEXT.some((pattern) => pattern.test(file)))).toEqual([]);
});

it('the same check sees structured output and storage code where an app imports them', async () => {
  const files = await shipped('EnginePool, PoolProvider, useObject, useModelStorage');
  expect(files.filter((file) => NOT_FOR_GHOST_TEXT.some((pattern) => pattern.test(file))).length).toBeGreaterThan(2);
});
