import type { BuiltInApiName } from '../builtInApis.js';

/** The options dictionary one static of a fake API takes, checked as Chromium's bindings check it. */
export type FakeCall = 'availability' | 'create';

const MESSAGE_TYPES = new Set(['text', 'image', 'audio']);

/**
 * What Chromium's bindings refuse in a built-in AI API's options, before any
 * model is asked: a value that is not a dictionary, a missing required member
 * (`TypeError`), a list that is not one, an `expectedInputs` entry without a
 * valid `type` (`TypeError`), then a language tag that is not one
 * (`RangeError`). `undefined` when the options pass. The caller rejects its
 * promise with it: these APIs never throw synchronously.
 *
 * @example
 * const problem = optionsProblem('Translator', 'availability', arguments.length, options);
 * if (problem) return Promise.reject(problem);
 */
export function optionsProblem(api: BuiltInApiName, call: FakeCall, count: number, options: unknown): TypeError | RangeError | undefined {
  const where = `${api}.${call}()`;
  if (api === 'Translator' && count === 0) return new TypeError(`${where} takes the language pair: { sourceLanguage, targetLanguage }.`);
  if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function')
    return new TypeError(`${where}: the options must be an object.`);
  const o = (options ?? {}) as Record<string, unknown>;
  const tags: unknown[] = [];
  if (api === 'Translator') {
    for (const key of ['sourceLanguage', 'targetLanguage']) {
      if (o[key] === undefined) return new TypeError(`${where}: "${key}" is required.`);
      tags.push(o[key]);
    }
  }
  if (api === 'LanguageDetector') {
    const list = sequence(o.expectedInputLanguages, `${where}: "expectedInputLanguages"`);
    if (list instanceof TypeError) return list;
    tags.push(...(list ?? []));
  }
  if (api === 'LanguageModel') {
    for (const key of ['expectedInputs', 'expectedOutputs']) {
      const list = sequence(o[key], `${where}: "${key}"`);
      if (list instanceof TypeError) return list;
      for (const entry of list ?? []) {
        if (entry === null || typeof entry !== 'object') return new TypeError(`${where}: each of "${key}" must be an object.`);
        const { type, languages } = entry as { type?: unknown; languages?: unknown };
        if (type === undefined) return new TypeError(`${where}: each of "${key}" needs a "type".`);
        if (!MESSAGE_TYPES.has(String(type)))
          return new TypeError(`${where}: "${String(type)}" is not a type of "${key}" ('text', 'image' or 'audio').`);
        const langs = sequence(languages, `${where}: "${key}[].languages"`);
        if (langs instanceof TypeError) return langs;
        tags.push(...(langs ?? []));
      }
    }
  }
  for (const tag of tags) {
    if (!isLanguageTag(String(tag)))
      return new RangeError(`${where}: "${String(tag)}" is not a language tag (BCP 47, e.g. "en" or "pt-BR").`);
  }
  return undefined;
}

/** A WebIDL sequence: `undefined` when absent, its items, or the `TypeError` for a value that is not iterable. */
function sequence(value: unknown, what: string): unknown[] | TypeError | undefined {
  if (value === undefined) return undefined;
  const iterable =
    value !== null && typeof value === 'object' && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
  return iterable ? [...(value as Iterable<unknown>)] : new TypeError(`${what} must be a list.`);
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
