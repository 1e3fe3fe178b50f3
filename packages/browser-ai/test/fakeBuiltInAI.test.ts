import { describe, expect, it } from 'vitest';
import { createFakeBuiltInAI } from '../src/testing/index.js';

type Statics = Record<'LanguageModel' | 'Translator' | 'LanguageDetector', { availability(...args: unknown[]): Promise<unknown> }>;

/** The error's name a call rejects with; `'threw …'` when it throws instead, as Chrome's never do. */
async function refusal(call: () => Promise<unknown>): Promise<string> {
  let made: Promise<unknown>;
  try {
    made = call();
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
  return made.then(
    () => 'resolved',
    (error: Error) => error.name,
  );
}

describe('the built-in AI fake refuses, in Node too, what Chrome refuses', () => {
  it('options of the wrong shape reject a TypeError and bad language tags a RangeError, never a synchronous throw', async () => {
    const api = createFakeBuiltInAI().globals as unknown as Statics;
    expect(await refusal(() => api.Translator.availability())).toBe('TypeError');
    expect(await refusal(() => api.Translator.availability({}))).toBe('TypeError');
    expect(await refusal(() => api.Translator.availability({ sourceLanguage: 'en', targetLanguage: 'not a language' }))).toBe('RangeError');
    expect(await refusal(() => api.LanguageModel.availability({ expectedInputs: [{ type: 'video' }] }))).toBe('TypeError');
    expect(await refusal(() => api.LanguageModel.availability({ expectedInputs: [{ type: 'text', languages: ['no such tag'] }] }))).toBe(
      'RangeError',
    );
    expect(await refusal(() => api.LanguageDetector.availability({ expectedInputLanguages: ['no such tag'] }))).toBe('RangeError');
    expect(await refusal(() => api.Translator.availability({ sourceLanguage: 'en', targetLanguage: 'fr' }))).toBe('resolved');
  });
});
