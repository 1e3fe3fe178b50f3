import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { XGrammar } from '../src/worker/laneGrammar.js';

const require = createRequire(import.meta.url);

/**
 * `@mlc-ai/web-xgrammar` in Node for the tests: its UMD file (in a package
 * marked as ES modules, so Node's own import fails on its `require`) run as
 * the CommonJS module it also is, the way a bundler hands it over. Its wasm is
 * embedded in the file; its glue is shown no Node (`process` without
 * `versions.node`, as the real-engine bench's worker threads show it), so it
 * decodes that wasm itself instead of importing Node's modules.
 */
export function nodeXGrammar(): Promise<XGrammar> {
  const path = require.resolve('@mlc-ai/web-xgrammar');
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'module', 'require', '__filename', 'process', readFileSync(path, 'utf8'))(module.exports, module, require, path, {
    versions: {},
    argv: [],
  });
  return Promise.resolve(module.exports as unknown as XGrammar);
}
