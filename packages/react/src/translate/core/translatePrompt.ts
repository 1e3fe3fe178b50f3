import { type ChatCompletionRequest } from '@inkling/scheduler';
import { languageName, translationRequest } from '@inkling/scheduler/engine';

/** What `buildParams` of `useBatchTranslate` is given for each item. */
export interface TranslateParamsInput {
  /** The string to translate. */
  readonly text: string;
  /** Target language: a BCP 47 code (`'fr'`) or a name (`'French'`). */
  readonly to: string;
  /** Source language, when known. */
  readonly from: string | undefined;
}

// The prompt lives in the scheduler, which gives it to every chat engine that
// runs a translation job; these names stay for code that built on them.
export { languageName };

/**
 * The chat request a translation becomes on a chat engine (the scheduler's
 * `translationRequest`): translate one string, reply with the translation
 * only, keep formatting and placeholders, temperature 0. `useBatchTranslate`
 * without `buildParams` submits translation jobs, which a chat engine turns
 * into this same request.
 *
 * @example
 * defaultTranslateParams({ text: 'Good morning', to: 'ja', from: 'en' });
 */
export function defaultTranslateParams({ text, to, from }: TranslateParamsInput): ChatCompletionRequest {
  return translationRequest(from === undefined ? { text, to } : { text, to, from });
}
