import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { InvalidJobError, type Priority } from '@inkling/scheduler';

/**
 * How a call is scheduled on the pool, set per model (`inkling(id, options)`)
 * or per call through `providerOptions: { inkling: { ... } }` (the call's
 * own win over the model's). An unknown key throws an `InvalidJobError`.
 *
 * @example
 * streamText({ model, prompt, providerOptions: { inkling: { priority: 'low', session: 'summary', preemptible: true } } });
 */
export interface InklingCallSettings {
  /**
   * The scheduler band. Default: `'high'` for text (a person watches a chat
   * turn stream), `'normal'` for structured output (`generateObject`,
   * `Output.object`), which usually runs in the background.
   */
  priority?: Priority;
  /**
   * A later call with the same session cancels this one (a chat's next turn,
   * an extraction redone as a note changes); it also keeps the session on the
   * engine whose cache holds its prompt. Default: none.
   */
  session?: string;
  /** The unit that owns an engine. Default: the session, else each call its own. */
  task?: string;
  /**
   * May be interrupted by interactive work (ghost text) when no engine is free;
   * the call then ends with finish reason `'interrupted'`. Default: `false` for
   * text, `true` for structured output.
   */
  preemptible?: boolean;
}

const KEYS = ['priority', 'session', 'task', 'preemptible'] as const;

/** The settings a call runs with: the call's own, then the model's, then the defaults for its kind. */
export function callSettings(options: LanguageModelV4CallOptions, model: InklingCallSettings): InklingCallSettings {
  const given = (options.providerOptions?.inkling ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new InvalidJobError(`providerOptions.inkling.${key} is not an Inkling setting; use ${KEYS.join(', ')}.`);
    }
  }
  const structured = options.responseFormat?.type === 'json';
  return {
    priority: structured ? 'normal' : 'high',
    preemptible: structured,
    ...model,
    ...(given as InklingCallSettings),
  };
}
