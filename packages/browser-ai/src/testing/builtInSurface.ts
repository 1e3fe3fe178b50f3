import type { BuiltInApiName } from '../builtInApis.js';

/**
 * Every member of Chrome's built-in AI APIs that `@inkling/browser-ai`'s
 * engines touch: the statics of each interface object and the members of its
 * instances. The browser suite checks, in the same run, that each exists on
 * Chromium's own interfaces and that the fake (`createFakeBuiltInAI`) has
 * nothing they lack.
 *
 * @example
 * for (const name of BUILT_IN_SURFACE.Translator.members) expect(name in Translator.prototype).toBe(true);
 */
export const BUILT_IN_SURFACE: Readonly<
  Record<BuiltInApiName, { readonly statics: readonly string[]; readonly members: readonly string[] }>
> = {
  LanguageModel: {
    statics: ['availability', 'create'],
    members: ['promptStreaming', 'append', 'clone', 'measureContextUsage', 'contextUsage', 'contextWindow', 'destroy'],
  },
  Translator: {
    statics: ['availability', 'create'],
    members: ['translateStreaming', 'measureInputUsage', 'inputQuota', 'destroy'],
  },
  LanguageDetector: {
    statics: ['availability', 'create'],
    members: ['detect', 'destroy'],
  },
};
