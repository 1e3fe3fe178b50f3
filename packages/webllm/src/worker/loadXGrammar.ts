import type { XGrammar } from './laneGrammar.js';

/**
 * `@mlc-ai/web-xgrammar`, imported when an engine's lanes start (a chunk of
 * its own in the worker's bundle: about 1.1 MB, its wasm embedded as a data
 * URL, so nothing is fetched from elsewhere). Its file is a UMD script in a
 * package marked as ES modules: a bundler hands it over as CommonJS (the API
 * is the namespace or its `default`); loaded as a plain ES module it sets
 * `globalThis.xgrammar`. Whichever holds the API is used.
 *
 * @throws Error when none of them does (the import itself may throw too).
 * @example
 * const lanes = await startGrammars(loadXGrammar, pipeline);
 */
export async function loadXGrammar(): Promise<XGrammar> {
  const module = (await import('@mlc-ai/web-xgrammar')) as unknown as Partial<XGrammar> & { default?: Partial<XGrammar> };
  const found = [module, module.default, (globalThis as { xgrammar?: Partial<XGrammar> }).xgrammar].find(isXGrammar);
  if (!found) throw new Error('@mlc-ai/web-xgrammar loaded without its API (GrammarCompiler, GrammarMatcher, TokenizerInfo)');
  return found;
}

function isXGrammar(value: Partial<XGrammar> | undefined): value is XGrammar {
  return (
    typeof value?.GrammarCompiler?.createGrammarCompiler === 'function' &&
    typeof value.GrammarMatcher?.createGrammarMatcher === 'function' &&
    typeof value.TokenizerInfo?.createTokenizerInfo === 'function'
  );
}
