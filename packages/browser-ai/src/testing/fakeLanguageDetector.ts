import type { Availability, BuiltInAIGlobals, CreateMonitorOptions } from '../builtInApis.js';
import { optionsProblem } from './fakeOptionChecks.js';
import { type FakeWorld, aborted } from './fakeWorld.js';

/** The fake `LanguageDetector` of `world`: it finds `options.detect`'s language. */
export function fakeLanguageDetector(world: FakeWorld): NonNullable<BuiltInAIGlobals['LanguageDetector']> {
  const { options, stats } = world;
  const detect = options.detect ?? (() => 'en');

  class LanguageDetector {
    static availability(...args: unknown[]): Promise<Availability> {
      const problem = optionsProblem('LanguageDetector', 'availability', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      return Promise.resolve(options.detector === 'absent' ? 'unavailable' : (options.detector ?? 'available'));
    }

    static create(...args: unknown[]): Promise<LanguageDetector> {
      const problem = optionsProblem('LanguageDetector', 'create', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const o = (args[0] ?? undefined) as CreateMonitorOptions | undefined;
      return world.created(options.detector === 'absent' ? 'unavailable' : (options.detector ?? 'available'), o, () => {
        stats.detectorsCreated += 1;
        return new LanguageDetector();
      });
    }

    detect(text: string, o?: { signal?: AbortSignal }): Promise<Array<{ detectedLanguage: string; confidence: number }>> {
      return aborted(o?.signal) ?? Promise.resolve([{ detectedLanguage: detect(text), confidence: 0.9 }]);
    }

    destroy(): void {}
  }

  return LanguageDetector as unknown as NonNullable<BuiltInAIGlobals['LanguageDetector']>;
}
