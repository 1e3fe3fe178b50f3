import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/**
 * The minified bundle of an app that imports `names` from @inkling/react (its
 * peers left out): its code, and the kit's source files with bytes in it.
 */
export async function appBundle(names: string): Promise<{ code: string; files: string[] }> {
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
  const files = Object.entries(output!.inputs)
    .filter(([file, input]) => input.bytesInOutput > 0 && !file.startsWith('<'))
    .map(([file]) => file.replace(/^.*?packages\//, ''));
  return { code: result.outputFiles[0]!.text, files };
}
