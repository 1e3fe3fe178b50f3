import { InvalidOptionError } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import {
  type BuiltInEnginesOptions,
  type PromptEnginesOptions,
  type TranslatorEnginesOptions,
  builtInEngines,
  promptEngines,
  translatorEngines,
} from '../src/index.js';
import { createFakeBuiltInAI } from '../src/testing/index.js';

const timers = { setTimeout, clearTimeout };

/** The message of the error a factory throws, which must be an `InvalidOptionError`. */
function refusal(make: () => unknown): string {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidOptionError);
  return (thrown as Error).message;
}

describe('promptEngines() checks its options when called, before anything loads', () => {
  it.each([
    [{ createOptions: 'en' }, 'promptEngines() "createOptions" must be an object for LanguageModel.create(); it got "en".'],
    [{ maxSessions: 0 }, 'promptEngines() "maxSessions" must be a whole number, 1 or more; it got 0.'],
    [{ maxSessions: 2.5 }, 'promptEngines() "maxSessions" must be a whole number, 1 or more; it got 2.5.'],
    [{ downloadStallMs: -1 }, 'promptEngines() "downloadStallMs" must be a number of milliseconds from 0 to 2147483647'],
    [{ downloadStallMs: '30s' }, 'it got "30s".'],
    [{ globals: 'window' }, 'promptEngines() "globals" must be an object like globalThis; it got "window".'],
    [{ timers: { setTimeout } }, 'promptEngines() "timers" must be an object with setTimeout and clearTimeout; it got {}.'],
  ])('%j', (options, message) => {
    expect(refusal(() => promptEngines(options as never))).toContain(message);
  });

  it('takes no options, Infinity as the stall bound, and injected globals and timers', () => {
    const { globals } = createFakeBuiltInAI();
    expect(typeof promptEngines()).toBe('function');
    expect(typeof promptEngines({ downloadStallMs: Infinity, maxSessions: 1, globals, timers, createOptions: {} })).toBe('function');
  });

  it('refuses options that are not an object', () => {
    expect(refusal(() => promptEngines(null as never))).toBe('promptEngines() options must be an object; it got null.');
  });
});

describe('translatorEngines() checks its options when called', () => {
  it.each([
    [
      { languages: { from: 'en', to: 'fr' } },
      'translatorEngines() "languages" must be an array like [{ from: \'en\', to: \'fr\' }]; it got {"from":"en","to":"fr"}.',
    ],
    [{ languages: [{ from: 'en' }] }, 'translatorEngines() "languages" must be an array like'],
    [{ languages: [{ from: '', to: 'fr' }] }, 'it got [{"from":"","to":"fr"}].'],
    [{ languages: [null] }, 'it got [null].'],
    [{ downloadStallMs: 2 ** 31 }, 'translatorEngines() "downloadStallMs" must be a number of milliseconds'],
    [{ globals: 1 }, 'translatorEngines() "globals" must be an object like globalThis; it got 1.'],
    [{ timers: () => 0 }, 'translatorEngines() "timers" must be an object with setTimeout and clearTimeout; it got a function.'],
  ])('%j', (options, message) => {
    expect(refusal(() => translatorEngines(options as never))).toContain(message);
  });

  it('takes language pairs and no options', () => {
    expect(typeof translatorEngines({ languages: [{ from: 'en', to: 'pt-BR' }], timers })).toBe('function');
    expect(typeof translatorEngines()).toBe('function');
  });
});

describe('builtInEngines() checks its parts', () => {
  it.each([
    [{ prompt: true }, 'builtInEngines() "prompt" must be an object, or false for none; it got true.'],
    [{ translation: 'en→fr' }, 'builtInEngines() "translation" must be an object, or false for none; it got "en→fr".'],
    [{ prompt: { maxSessions: -1 } }, 'promptEngines() "maxSessions" must be a whole number, 1 or more; it got -1.'],
    [{ translation: { languages: 'fr' } }, 'translatorEngines() "languages" must be an array like'],
    [{ globals: 'x' }, 'promptEngines() "globals" must be an object like globalThis; it got "x".'],
    [{ prompt: false, translation: false }, 'builtInEngines needs "prompt" or "translation" (or both); both were false.'],
    [7, 'builtInEngines() options must be an object; it got 7.'],
  ])('%j', (options, message) => {
    expect(refusal(() => builtInEngines(options as never))).toContain(message);
  });

  it('takes a part left out, given, or false', () => {
    expect(typeof builtInEngines({ prompt: false, translation: { languages: [] } })).toBe('function');
    expect(typeof builtInEngines({ prompt: {} })).toBe('function');
  });
});

describe('every factory refuses an option it does not take', () => {
  it.each([
    [() => promptEngines({ maxSession: 2 } as never), 'promptEngines() has no option "maxSession" (did you mean "maxSessions"?)'],
    [() => translatorEngines({ language: [] } as never), 'translatorEngines() has no option "language" (did you mean "languages"?)'],
    [() => builtInEngines({ translations: {} } as never), 'builtInEngines() has no option "translations" (did you mean "translation"?)'],
    // A part's options are its engines': the typo is named by the part's factory.
    [
      () => builtInEngines({ prompt: { createOption: {} } } as never),
      'promptEngines() has no option "createOption" (did you mean "createOptions"?)',
    ],
    [
      () => promptEngines({ pick: 'gpu' } as never),
      'promptEngines() has no option "pick": remove or rename it. Its options: createOptions, maxSessions, downloadStallMs, globals, timers.',
    ],
  ])('%#: %s', (make, message) => {
    expect(refusal(make)).toContain(message);
  });

  it('takes every option each documents, and an unknown key left undefined', () => {
    const { globals } = createFakeBuiltInAI();
    const shared = { downloadStallMs: 10, globals, timers };
    const prompt: Required<PromptEnginesOptions> = { ...shared, createOptions: {}, maxSessions: 1 };
    const translation: Required<TranslatorEnginesOptions> = { ...shared, languages: [] };
    const both: Required<BuiltInEnginesOptions> = { prompt, translation, globals };
    expect(typeof builtInEngines(both)).toBe('function');
    expect(typeof promptEngines({ maxSession: undefined } as never)).toBe('function');
  });
});
