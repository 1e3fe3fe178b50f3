import type { Availability, BuiltInAIGlobals, LanguageModelMessage } from '../builtInApis.js';

/** How a fake API answers `availability()`, or `'absent'` to leave it out. */
export type FakeAvailability = Availability | 'absent';

/** Options of `createFakeBuiltInAI`. */
export interface FakeBuiltInAIOptions {
  /** The Prompt API's answer. Default `'available'`. */
  prompt?: FakeAvailability;
  /** The Translator API's answer for a pair. Default `'available'` for every pair. */
  translation?: FakeAvailability | ((from: string, to: string) => Availability);
  /** The Language Detector API's answer. Default `'available'`. */
  detector?: FakeAvailability;
  /**
   * The built-in model's reply to a session's context. Default: `'This is a
   * built-in reply.'` Under a prompt's `responseConstraint` (a JSON Schema)
   * it is the answer only when it satisfies the schema; otherwise the fake
   * answers, as constrained decoding would, with the smallest value the
   * schema allows (its strings taken from the reply's words). A schema it
   * cannot read makes `promptStreaming` throw a `NotSupportedError`.
   */
  reply?: (context: readonly LanguageModelMessage[]) => string;
  /** A translation. Default: `«to» text`, e.g. `«fr» Hello`. */
  translate?: (text: string, from: string, to: string) => string;
  /** The language `detect()` finds. Default `'en'`. */
  detect?: (text: string) => string;
  /** Real milliseconds between two streamed pieces (words). Default `1`. */
  pieceMs?: number;
  /** The model's context window, in tokens (4 characters a token). Default `4096`. */
  contextWindow?: number;
  /**
   * The names a session gives its limits: `'context'` as Chrome 148 and
   * later (`contextWindow`, `contextUsage`, `measureContextUsage`: the shape
   * checked against Chromium's), `'input'` as 138 to 147 (`inputQuota`,
   * `inputUsage`, `measureInputUsage`), `'tokens'` as the origin trial before
   * (`maxTokens`, `tokensSoFar`, `tokensLeft`, nothing to measure with), or
   * `'none'`. Whatever the names, an input over the window is refused with a
   * `QuotaExceededError`. Default `'context'`.
   */
  limits?: 'context' | 'input' | 'tokens' | 'none';
  /** A translator's input quota, in the same tokens. Default `1000`. */
  inputQuota?: number;
  /** What a download does when `create()` must download: progress steps then ready, or `'never'` settle. Default `[0, 0.5, 1]`. */
  download?: readonly number[] | 'never';
  /**
   * Whether a person's click or key press is active when `create()` must
   * download: without one, Chrome refuses (`NotAllowedError`) and so does the
   * fake. `true` for a test standing for a load from a click handler.
   * Default: `navigator.userActivation.isActive` where the runtime has it (a
   * browser, where a test's real click counts), else `false` (Node, jsdom).
   */
  userActivation?: boolean | (() => boolean);
}

/** What the fake counts, for tests to assert on. */
export interface FakeBuiltInAIStats {
  /** `LanguageModel.create()` calls that made a session. */
  sessionsCreated: number;
  clones: number;
  appends: number;
  prompts: Array<{ input: LanguageModelMessage[]; contextBefore: number; responseConstraint: unknown }>;
  /** Prompt API sessions destroyed. */
  sessionsDestroyed: number;
  /** Prompt API sessions alive now. */
  readonly liveSessions: number;
  /** Translators made, by pair (`'en→fr'`). */
  translatorsCreated: Map<string, number>;
  translations: number;
  translatorsDestroyed: number;
  detectorsCreated: number;
  /** `create()` calls that had to download (each API). */
  downloads: number;
}

/** A fake of Chrome's built-in AI APIs: `globals` to hand to the engines, `stats` to assert on. */
export interface FakeBuiltInAI {
  readonly globals: BuiltInAIGlobals;
  readonly stats: FakeBuiltInAIStats;
}
