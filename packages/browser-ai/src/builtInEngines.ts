import { type CreateEngine, type Engine, InvalidOptionError } from '@inkling/scheduler';
import type { BuiltInAIGlobals } from './builtInApis.js';
import { BUILT_IN_RULES, checkOptions } from './engineOptions.js';
import { type PromptEnginesOptions, promptEngines } from './promptEngines.js';
import { type TranslatorEnginesOptions, translatorEngines } from './translatorEngines.js';

/** Options of `builtInEngines`. */
export interface BuiltInEnginesOptions {
  /** The Prompt API part (chat, completion, ghost text), or `false` for none. Default `{}`. */
  prompt?: PromptEnginesOptions | false;
  /** The Translator API part (translation jobs), or `false` for none. Default `{}`. */
  translation?: TranslatorEnginesOptions | false;
  /** Where the APIs are found, for both parts. Default `globalThis`. */
  globals?: BuiltInAIGlobals;
}

/**
 * One engine over both of Chrome's APIs: chat jobs on the Prompt API,
 * translation jobs on the Translator API. One pool then schedules both, so
 * ghost text preempts a batch translation as on any other engine. Its load
 * needs every part it was given (a part the device lacks fails the load:
 * leave it out with `false`, as `detectBuiltInAI()` tells).
 *
 * @example
 * const probe = await detectBuiltInAI();
 * const pool = new EnginePool({
 *   size: 1,
 *   createEngine: builtInEngines({ prompt: probe.prompt.usable && {}, translation: { languages: [{ from: 'en', to: 'fr' }] } }),
 * });
 */
export function builtInEngines(options: BuiltInEnginesOptions = {}): CreateEngine {
  checkOptions(options, BUILT_IN_RULES, 'builtInEngines', ['globals']);
  const { globals } = options;
  const prompt = options.prompt === false ? undefined : promptEngines({ globals, ...options.prompt });
  const translation = options.translation === false ? undefined : translatorEngines({ globals, ...options.translation });
  if (!prompt && !translation) throw new InvalidOptionError('builtInEngines needs "prompt" or "translation" (or both); both were false.');
  return async (index, onProgress, createOptions) => {
    const parts = [prompt, translation].filter((part): part is CreateEngine => part !== undefined);
    const engines: Engine[] = [];
    try {
      for (const [i, part] of parts.entries()) {
        engines.push(
          await part(index, (report) => onProgress({ ...report, progress: (i + report.progress) / parts.length }), createOptions),
        );
      }
    } catch (error) {
      await Promise.all(engines.map((engine) => engine.unload?.()));
      throw error;
    }
    const [chatEngine, translationEngine] = prompt ? [engines[0], engines[1]] : [undefined, engines[0]];
    return {
      concurrency: 1,
      chat: (chatEngine ?? (translationEngine as Engine)).chat,
      ...(translationEngine?.translation ? { translation: translationEngine.translation } : {}),
      interruptGenerate: () => engines.forEach((engine) => engine.interruptGenerate()),
      unload: async () => void (await Promise.all(engines.map((engine) => engine.unload?.()))),
    };
  };
}
