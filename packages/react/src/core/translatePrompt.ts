import type { ChatCompletionRequest } from '@inkling/scheduler';

/** What `buildParams` of `useBatchTranslate` is given for each item. */
export interface TranslateParamsInput {
  /** The string to translate. */
  readonly text: string;
  /** Target language: a BCP 47 code (`'fr'`) or a name (`'French'`). */
  readonly to: string;
  /** Source language, when known. */
  readonly from: string | undefined;
}

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
 * The default request of `useBatchTranslate`: translate one string, reply
 * with the translation only, keep formatting and placeholders, temperature 0
 * (so the cached answer is the answer).
 *
 * @example
 * defaultTranslateParams({ text: 'Good morning', to: 'ja', from: 'en' });
 */
export function defaultTranslateParams({ text, to, from }: TranslateParamsInput): ChatCompletionRequest {
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
