import type { ChatCompletionRequest, TranslationParams } from './types.js';

/**
 * A language's English name for a prompt; a name or anything unknown stays as it is.
 *
 * @example
 * languageName('fr'); // 'French'
 * languageName('Klingon'); // 'Klingon'
 */
export function languageName(language: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language);
    return name && name !== language ? name : language;
  } catch {
    return language;
  }
}

/**
 * The chat request a translation job becomes on an engine that does not
 * translate natively: translate one string, reply with the translation only,
 * keep formatting and placeholders, temperature 0 (so a cached answer is the
 * answer). The pool uses it; `useBatchTranslate`'s default prompt is the same.
 *
 * @example
 * translationRequest({ text: 'Good morning', to: 'ja', from: 'en' });
 * // { messages: [{ role: 'system', content: 'You are a translation engine. ...' }, { role: 'user', content: 'Good morning' }], temperature: 0 }
 */
export function translationRequest({ text, to, from }: TranslationParams): ChatCompletionRequest {
  const source = from ? `from ${languageName(from)} ` : '';
  return {
    messages: [
      {
        role: 'system',
        content: `You are a translation engine. Translate the user's text ${source}into ${languageName(to)}. Reply with the translation only: no notes, no quotes. Keep formatting, punctuation style, numbers and placeholders such as {name} or %s unchanged.`,
      },
      { role: 'user', content: text },
    ],
    temperature: 0,
  };
}
