import { createFakeBuiltInAI } from '@inkling/browser-ai/testing';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';

// The fake's behaviour, not only its shape, against this Chromium's real APIs in the same run: the
// same calls on both, compared by outcome (resolved with which value, rejected with which error
// name, thrown synchronously, or still pending). The fake is set up as this Chromium answers
// offline without a model: the Prompt API and the detector 'unavailable', en→fr 'downloadable'.

type Api = 'LanguageModel' | 'Translator' | 'LanguageDetector';
type Statics = Record<Api, { availability(...args: unknown[]): Promise<unknown>; create(...args: unknown[]): Promise<unknown> }>;

const real = globalThis as unknown as Statics;

function fakeLikeThisChromium(): Statics {
  return createFakeBuiltInAI({
    prompt: 'unavailable',
    detector: 'unavailable',
    translation: (from, to) => (from === 'en' && to === 'fr' ? 'downloadable' : 'unavailable'),
    download: 'never',
  }).globals as unknown as Statics;
}

/** The calls compared, each on an API's statics; none may download (no click here). */
const CALLS: Record<string, (api: Statics) => unknown> = {
  'LanguageModel.availability()': (a) => a.LanguageModel.availability(),
  'LanguageModel.availability({})': (a) => a.LanguageModel.availability({}),
  'LanguageModel.availability(null)': (a) => a.LanguageModel.availability(null),
  "LanguageModel.availability('text')": (a) => a.LanguageModel.availability('text'),
  'expectedInputs text': (a) => a.LanguageModel.availability({ expectedInputs: [{ type: 'text', languages: ['en'] }] }),
  'expectedInputs of an unknown type': (a) => a.LanguageModel.availability({ expectedInputs: [{ type: 'video' }] }),
  'expectedInputs without a type': (a) => a.LanguageModel.availability({ expectedInputs: [{ languages: ['en'] }] }),
  'expectedInputs not a list': (a) => a.LanguageModel.availability({ expectedInputs: { type: 'text' } }),
  'expectedInputs with a bad language tag': (a) =>
    a.LanguageModel.availability({ expectedInputs: [{ type: 'text', languages: ['not a language'] }] }),
  'expectedOutputs with a bad language tag': (a) =>
    a.LanguageModel.availability({ expectedOutputs: [{ type: 'text', languages: ['english!'] }] }),
  'LanguageModel.create() with a bad type': (a) => a.LanguageModel.create({ expectedInputs: [{ type: 'video' }] }),
  'LanguageModel.create() with a bad language tag': (a) =>
    a.LanguageModel.create({ expectedInputs: [{ type: 'text', languages: ['not a language'] }] }),
  'LanguageModel.create() where unavailable': (a) => a.LanguageModel.create(),
  'Translator.availability()': (a) => a.Translator.availability(),
  'Translator.availability({})': (a) => a.Translator.availability({}),
  "Translator.availability('en')": (a) => a.Translator.availability('en'),
  'Translator.availability without a target': (a) => a.Translator.availability({ sourceLanguage: 'en' }),
  'Translator.availability en→fr': (a) => a.Translator.availability({ sourceLanguage: 'en', targetLanguage: 'fr' }),
  'Translator.availability en→xx': (a) => a.Translator.availability({ sourceLanguage: 'en', targetLanguage: 'xx' }),
  'Translator.availability with a bad tag': (a) => a.Translator.availability({ sourceLanguage: 'en', targetLanguage: 'not a language' }),
  'Translator.availability with an empty tag': (a) => a.Translator.availability({ sourceLanguage: '', targetLanguage: 'fr' }),
  'Translator.create()': (a) => a.Translator.create(),
  'Translator.create({})': (a) => a.Translator.create({}),
  'Translator.create with a bad tag': (a) => a.Translator.create({ sourceLanguage: 'en', targetLanguage: 'not a language' }),
  'Translator.create en→xx (unavailable)': (a) => a.Translator.create({ sourceLanguage: 'en', targetLanguage: 'xx' }),
  'Translator.create en→fr without a click (must download)': (a) => a.Translator.create({ sourceLanguage: 'en', targetLanguage: 'fr' }),
  'LanguageDetector.availability()': (a) => a.LanguageDetector.availability(),
  'LanguageDetector.availability with a bad tag': (a) => a.LanguageDetector.availability({ expectedInputLanguages: ['not a language'] }),
  'LanguageDetector.availability not a list': (a) => a.LanguageDetector.availability({ expectedInputLanguages: 'en' }),
  'LanguageDetector.create() where unavailable': (a) => a.LanguageDetector.create(),
  'LanguageDetector.create with a bad tag': (a) => a.LanguageDetector.create({ expectedInputLanguages: ['not a language'] }),
};

/** A call's outcome in words: `resolved "x"`, `rejected TypeError`, `threw TypeError`, or `pending` after `waitMs`. */
async function outcome(call: () => unknown, waitMs = 300): Promise<string> {
  let made: unknown;
  try {
    made = call();
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
  if (!(made instanceof Promise)) return `returned ${JSON.stringify(made)}`;
  const pending = new Promise<string>((resolve) => setTimeout(() => resolve('pending'), waitMs));
  return Promise.race([
    made.then(
      (value) => `resolved ${typeof value === 'string' ? JSON.stringify(value) : 'an instance'}`,
      (e: Error) => `rejected ${e.name}`,
    ),
    pending,
  ]);
}

async function outcomes(api: Statics): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [label, call] of Object.entries(CALLS)) out[label] = await outcome(() => call(api));
  return out;
}

describe("the built-in AI fake behaves as this Chromium's APIs where they refuse", () => {
  it('the same calls end the same way on both: value, or error name, rejected and never thrown', async () => {
    expect(navigator.userActivation.isActive).toBe(false);
    const seen = await outcomes(real);
    // What this Chromium does, so a change of Chromium shows here rather than as a puzzling diff.
    expect(seen).toMatchObject({
      'expectedInputs of an unknown type': 'rejected TypeError',
      'expectedInputs with a bad language tag': 'rejected RangeError',
      'Translator.availability()': 'rejected TypeError',
      'Translator.availability({})': 'rejected TypeError',
      'Translator.create en→fr without a click (must download)': 'rejected NotAllowedError',
    });
    expect(await outcomes(fakeLikeThisChromium())).toEqual(seen);
  });

  it('from a click, a create() that must download is accepted by both (and, offline, left pending)', async () => {
    const fake = fakeLikeThisChromium();
    const stops: AbortController[] = [];
    const results: Array<Promise<string>> = [];
    const button = document.createElement('button');
    button.textContent = 'Download';
    document.body.append(button);
    button.addEventListener('click', () => {
      for (const api of [real, fake]) {
        const stop = new AbortController();
        stops.push(stop);
        results.push(outcome(() => api.Translator.create({ sourceLanguage: 'en', targetLanguage: 'fr', signal: stop.signal }), 500));
      }
    });
    await userEvent.click(button);
    button.remove();
    try {
      expect(await Promise.all(results)).toEqual(['pending', 'pending']);
    } finally {
      for (const stop of stops) stop.abort();
    }
  });
});
