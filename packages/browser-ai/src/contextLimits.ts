import type { LanguageModelMessage, LanguageModelSession } from './builtInApis.js';

/**
 * A Prompt API session's context as this Chrome names it: `contextUsage` /
 * `contextWindow` (148 and later), `inputUsage` / `inputQuota` (138 to 147),
 * `tokensSoFar` / `maxTokens` (the origin trial before). The newest names
 * present win; `undefined` where the browser gives none.
 */
export function contextLimits(session: LanguageModelSession): { used: number | undefined; window: number | undefined } {
  return {
    used: firstNumber(session.contextUsage, session.inputUsage, session.tokensSoFar),
    window: firstNumber(session.contextWindow, session.inputQuota, session.maxTokens),
  };
}

/** Tokens the context has room for; `Infinity` where the browser does not say (no pre-check then). */
export function contextRoom(session: LanguageModelSession): number {
  const { used, window } = contextLimits(session);
  return used === undefined || window === undefined ? Infinity : window - used;
}

/**
 * What `input` would take of the context: `measureContextUsage` (148 and
 * later), else `measureInputUsage` (138 to 147); `undefined` where the
 * browser has neither (the origin trial's sessions).
 */
export function measureInput(
  session: LanguageModelSession,
  input: LanguageModelMessage[],
  signal: AbortSignal,
): Promise<number | undefined> {
  const measure = session.measureContextUsage ?? session.measureInputUsage;
  return measure ? measure.call(session, input, { signal }) : Promise.resolve(undefined);
}

function firstNumber(...values: Array<number | undefined>): number | undefined {
  return values.find((value): value is number => typeof value === 'number' && Number.isFinite(value));
}
