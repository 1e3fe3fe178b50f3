import type { Availability, BuiltInAIGlobals, CreateMonitorOptions, LanguagePairOptions } from '../builtInApis.js';
import { optionsProblem } from './fakeOptionChecks.js';
import { type FakeWorld, aborted, tokens } from './fakeWorld.js';

/** The fake `Translator` of `world`: one per language pair, translations streamed word by word. */
export function fakeTranslator(world: FakeWorld): NonNullable<BuiltInAIGlobals['Translator']> {
  const { options, stats } = world;
  const inputQuota = options.inputQuota ?? 1000;
  const translate = options.translate ?? ((text: string, _from: string, to: string) => `«${to}» ${text}`);
  const pairState = (from: string, to: string): Availability => {
    const t = options.translation ?? 'available';
    if (typeof t === 'function') return t(from, to);
    return t === 'absent' ? 'unavailable' : t;
  };

  class Translator {
    static availability(...args: unknown[]): Promise<Availability> {
      const problem = optionsProblem('Translator', 'availability', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const { sourceLanguage, targetLanguage } = args[0] as LanguagePairOptions;
      return Promise.resolve(pairState(String(sourceLanguage), String(targetLanguage)));
    }

    static create(...args: unknown[]): Promise<Translator> {
      const problem = optionsProblem('Translator', 'create', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const o = args[0] as LanguagePairOptions & CreateMonitorOptions;
      return world.created(pairState(o.sourceLanguage, o.targetLanguage), o, () => {
        const key = `${o.sourceLanguage}→${o.targetLanguage}`;
        stats.translatorsCreated.set(key, (stats.translatorsCreated.get(key) ?? 0) + 1);
        return new Translator(o.sourceLanguage, o.targetLanguage);
      });
    }

    readonly #from: string;
    readonly #to: string;

    constructor(from: string, to: string) {
      this.#from = from;
      this.#to = to;
    }

    get inputQuota(): number {
      return inputQuota;
    }

    measureInputUsage(text: string, o?: { signal?: AbortSignal }): Promise<number> {
      return aborted(o?.signal) ?? Promise.resolve(tokens(text));
    }

    translateStreaming(text: string, o?: { signal?: AbortSignal }): ReadableStream<string> {
      if (tokens(text) > inputQuota) throw new DOMException('The input is too large.', 'QuotaExceededError');
      stats.translations += 1;
      return world.words(translate(text, this.#from, this.#to), o?.signal);
    }

    destroy(): void {
      stats.translatorsDestroyed += 1;
    }
  }

  return Translator as unknown as NonNullable<BuiltInAIGlobals['Translator']>;
}
