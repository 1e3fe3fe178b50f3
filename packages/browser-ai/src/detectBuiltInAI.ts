import { type FeatureProbe, apiAvailability } from './apiAvailability.js';
import { type BuiltInAIGlobals, builtInGlobals } from './builtInApis.js';

/**
 * What `detectBuiltInAI` found, per feature.
 *
 * @example
 * const probe: BuiltInAIProbe = await detectBuiltInAI();
 * const offer = probe.prompt.usable || probe.translation.usable;
 */
export interface BuiltInAIProbe {
  /** The Prompt API (`LanguageModel`): chat, completion, ghost text. */
  readonly prompt: FeatureProbe;
  /** The Translator API for the pair asked about. */
  readonly translation: FeatureProbe;
  /** The Language Detector API (a translation without `from`). */
  readonly languageDetection: FeatureProbe;
}

/** Options of `detectBuiltInAI`. */
export interface DetectBuiltInAIOptions {
  /** The language pair the translation probe asks about. Default `{ from: 'en', to: 'fr' }`. */
  translation?: { from: string; to: string };
  /** Passed to `LanguageModel.availability()`. Default: none. */
  promptOptions?: Record<string, unknown>;
  /** Where the APIs are found. Default `globalThis`. */
  globals?: BuiltInAIGlobals;
}

/**
 * Asks Chrome's built-in AI APIs what they can do here, without a request
 * and without a download (`availability()` only): per feature the state
 * (`'available'`, `'downloadable'`, `'downloading'`, `'unavailable'`, or
 * `'absent'` and `'blocked'` where it cannot be asked), whether it is usable,
 * and why, in words. Pass it to `preferBuiltIn` to choose engines.
 *
 * @example
 * const found = await detectBuiltInAI({ translation: { from: 'en', to: 'de' } });
 * if (!found.prompt.usable) console.info(found.prompt.reason);
 */
export async function detectBuiltInAI(options: DetectBuiltInAIOptions = {}): Promise<BuiltInAIProbe> {
  const globals = builtInGlobals(options.globals);
  const { from, to } = options.translation ?? { from: 'en', to: 'fr' };
  const [prompt, translation, languageDetection] = await Promise.all([
    apiAvailability(globals, 'LanguageModel', options.promptOptions),
    apiAvailability(globals, 'Translator', { sourceLanguage: from, targetLanguage: to }),
    apiAvailability(globals, 'LanguageDetector'),
  ]);
  return { prompt, translation, languageDetection };
}
