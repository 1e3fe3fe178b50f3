import type { BuiltInAIGlobals } from '../builtInApis.js';
import type { FakeBuiltInAI, FakeBuiltInAIOptions } from './fakeBuiltInAIOptions.js';
import { fakeLanguageDetector } from './fakeLanguageDetector.js';
import { fakeLanguageModel } from './fakeLanguageModel.js';
import { fakeTranslator } from './fakeTranslator.js';
import { fakeWorld } from './fakeWorld.js';

/**
 * A fake of Chrome's `LanguageModel`, `Translator` and `LanguageDetector`,
 * with only members the real interfaces have (`BUILT_IN_SURFACE`; the
 * browser suite checks them against Chromium's prototypes), answering on
 * real timers: words streamed `pieceMs` apart, signals honoured as Chrome
 * does (the stream errors with an `AbortError`), downloads that report
 * `downloadprogress`, or never settle. It refuses what this Chromium refuses
 * (the browser suite runs the same calls on both): options of the wrong
 * shape reject a `TypeError`, a bad language tag a `RangeError` (rejected
 * promises, never synchronous throws), and a `create()` that must download
 * without a person's click or key press a `NotAllowedError`.
 *
 * @example
 * const fake = createFakeBuiltInAI({ translation: 'downloadable', userActivation: true }); // as from a click
 * const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals, languages: [{ from: 'en', to: 'fr' }] }) });
 * await pool.load();
 * fake.stats.downloads; // 1
 */
export function createFakeBuiltInAI(options: FakeBuiltInAIOptions = {}): FakeBuiltInAI {
  const world = fakeWorld(options);
  const globals: BuiltInAIGlobals = {
    ...(options.prompt === 'absent' ? {} : { LanguageModel: fakeLanguageModel(world) }),
    ...(options.translation === 'absent' ? {} : { Translator: fakeTranslator(world) }),
    ...(options.detector === 'absent' ? {} : { LanguageDetector: fakeLanguageDetector(world) }),
  };
  return { globals, stats: world.stats };
}
