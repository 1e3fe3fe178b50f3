import { DICTIONARIES } from './pseudoDictionaries.js';

const ACCENTS: Readonly<Record<string, string>> = {
  a: 'á',
  e: 'é',
  i: 'í',
  o: 'ö',
  u: 'ü',
  c: 'ç',
  n: 'ñ',
  y: 'ý',
  s: 'š',
  z: 'ž',
  A: 'Á',
  E: 'É',
  I: 'Í',
  O: 'Ö',
  U: 'Ü',
  C: 'Ç',
  N: 'Ñ',
  Y: 'Ý',
  S: 'Š',
  Z: 'Ž',
};

/**
 * Whether the simulated engine has a dictionary for `language` (an English
 * language name, as the default prompt names it).
 *
 * @example
 * hasDictionary('French'); // true
 */
export function hasDictionary(language: string): boolean {
  return dictionaryFor(language) !== undefined;
}

function dictionaryFor(language: string): Readonly<Record<string, string>> | undefined {
  const name = language.charAt(0).toUpperCase() + language.slice(1).toLowerCase();
  return Object.hasOwn(DICTIONARIES, name) ? DICTIONARIES[name] : undefined;
}

function matchCase(word: string, translated: string): string {
  const first = word[0] ?? '';
  return first !== first.toLowerCase() ? translated.charAt(0).toUpperCase() + translated.slice(1) : translated;
}

/**
 * A deterministic pseudo-translation for the simulated engine. French,
 * Spanish and German go word by word through a small dictionary (unknown
 * words stay as they are); any other language gets clearly marked
 * pseudo-localisation: accented letters in brackets that name the language.
 *
 * @example
 * pseudoTranslate('Good morning, team', 'French'); // 'Bon matin, équipe'
 * pseudoTranslate('Hello', 'Japanese'); // '[Japanese: Héllö]'
 */
export function pseudoTranslate(text: string, language: string): string {
  const dictionary = dictionaryFor(language);
  if (!dictionary) {
    const accented = text.replace(/[a-zA-Z]/g, (ch) => ACCENTS[ch] ?? ch);
    return `[${language}: ${accented}]`;
  }
  return text.replace(/\p{L}+(?:'\p{L}+)?/gu, (word) => {
    const translated = dictionary[word.toLowerCase()];
    return translated === undefined ? word : matchCase(word, translated);
  });
}
