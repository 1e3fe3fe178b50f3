/**
 * Priority bands, from most to least urgent. Jobs in a higher band always start
 * before jobs in a lower one; within a band they start in the order submitted.
 *
 * @example
 * pool.submit({ params, priority: PRIORITY.INTERACTIVE, session: 'editor' });
 */
export const PRIORITY = {
  /** Work a person is waiting on keystroke by keystroke (ghost text). May preempt. */
  INTERACTIVE: 'interactive',
  /** Work a person asked for and is watching (a chat reply). */
  HIGH: 'high',
  /** The default band (a batch translation). */
  NORMAL: 'normal',
  /** Background work nobody is waiting on (pre-computing embeddings). */
  LOW: 'low',
} as const;

/** The bands in the order the scheduler drains them. */
export const PRIORITY_ORDER = ['interactive', 'high', 'normal', 'low'] as const satisfies ReadonlyArray<
  (typeof PRIORITY)[keyof typeof PRIORITY]
>;

/**
 * What a job asks its engine to do.
 *
 * @example
 * pool.submit({ kind: JOB_KIND.EMBEDDING, params: { input: ['a', 'b'] } });
 */
export const JOB_KIND = {
  /** A streamed chat completion (`engine.chat.completions.create`). */
  CHAT: 'chat',
  /** One embedding request (`engine.embeddings.create`). */
  EMBEDDING: 'embedding',
  /**
   * One text from one language into another (`engine.translation.create`
   * where the engine translates natively, else a chat prompt built by
   * `translationRequest`), streamed like a chat.
   */
  TRANSLATION: 'translation',
} as const;

/**
 * The longest a background or normal job waits before its next step for an
 * interactive job on the same device to get its first token (`Engine.device`).
 * A ghost-text prefill on a WebLLM engine takes ~40 ms on an H200; the cap keeps
 * a batch moving when keystrokes never stop.
 */
export const DEVICE_YIELD_MS = 250;
