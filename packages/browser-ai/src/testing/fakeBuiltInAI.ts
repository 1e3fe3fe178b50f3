import type { Availability, BuiltInAIGlobals, CreateMonitorOptions, LanguageModelMessage, LanguagePairOptions } from '../builtInApis.js';
import { constrainedReply } from './constrainedReply.js';
import { optionsProblem } from './fakeOptionChecks.js';

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

const aborted = (signal: AbortSignal | undefined): Promise<never> | undefined =>
  signal?.aborted ? Promise.reject(new DOMException('The operation was aborted.', 'AbortError')) : undefined;
const tokens = (text: string): number => Math.ceil(text.length / 4);
const sizeOf = (input: string | readonly LanguageModelMessage[]): number =>
  typeof input === 'string' ? tokens(input) : input.reduce((n, m) => n + tokens(m.content) + 1, 0);
const asMessages = (input: string | LanguageModelMessage[]): LanguageModelMessage[] =>
  typeof input === 'string' ? [{ role: 'user', content: input }] : input.map((m) => ({ ...m }));

/**
 * A fake of Chrome's `LanguageModel`, `Translator` and `LanguageDetector`,
 * with only members the real interfaces have (`BUILT_IN_SURFACE`; the
 * browser suite checks them against Chromium's prototypes), answering on
 * real timers: words streamed `pieceMs` apart, signals honoured as Chrome
 * does (the stream errors with an `AbortError`), downloads that report
 * `downloadprogress`, or never settle. It refuses what this Chromium refuses
 * (the browser suite runs the same calls on both): options of the wrong
 * shape reject a `TypeError`, a bad language tag a `RangeError` (rejected
 * promises, never synchronous throws), and a `create()` that must download
 * without a person's click or key press a `NotAllowedError`.
 *
 * @example
 * const fake = createFakeBuiltInAI({ translation: 'downloadable', userActivation: true }); // as from a click
 * const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals, languages: [{ from: 'en', to: 'fr' }] }) });
 * await pool.load();
 * fake.stats.downloads; // 1
 */
export function createFakeBuiltInAI(options: FakeBuiltInAIOptions = {}): FakeBuiltInAI {
  const pieceMs = options.pieceMs ?? 1;
  const contextWindow = options.contextWindow ?? 4096;
  const inputQuota = options.inputQuota ?? 1000;
  const reply = options.reply ?? (() => 'This is a built-in reply.');
  const translate = options.translate ?? ((text: string, _from: string, to: string) => `«${to}» ${text}`);
  const detect = options.detect ?? (() => 'en');
  const activation = options.userActivation;
  const activated = (): boolean =>
    typeof activation === 'function'
      ? activation()
      : (activation ??
        (globalThis as { navigator?: { userActivation?: { isActive?: boolean } } }).navigator?.userActivation?.isActive === true);
  let live = 0;
  const stats: FakeBuiltInAIStats = {
    sessionsCreated: 0,
    clones: 0,
    appends: 0,
    prompts: [],
    sessionsDestroyed: 0,
    get liveSessions() {
      return live;
    },
    translatorsCreated: new Map(),
    translations: 0,
    translatorsDestroyed: 0,
    detectorsCreated: 0,
    downloads: 0,
  };
  const pairState = (from: string, to: string): Availability => {
    const t = options.translation ?? 'available';
    if (typeof t === 'function') return t(from, to);
    return t === 'absent' ? 'unavailable' : t;
  };

  /** Resolves `make()` after the download steps when `state` says it must download first. */
  function created<T>(state: Availability, monitored: CreateMonitorOptions | undefined, make: () => T): Promise<T> {
    if (state === 'unavailable') return Promise.reject(new DOMException('Model not available', 'NotSupportedError'));
    const signal = monitored?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const target = new EventTarget();
    monitored?.monitor?.(target);
    if (state === 'available') return Promise.resolve(make());
    if (!activated())
      return Promise.reject(
        new DOMException(
          `A download starts only on a user gesture (a click or key press): the model is "${state}". Call create() from the click handler.`,
          'NotAllowedError',
        ),
      );
    stats.downloads += 1;
    const steps = options.download ?? [0, 0.5, 1];
    return new Promise<T>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (steps === 'never') return;
      let i = 0;
      const next = () => {
        if (signal?.aborted) return;
        if (i >= steps.length) return resolve(make());
        target.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: steps[i] }));
        i += 1;
        setTimeout(next, pieceMs);
      };
      next();
    });
  }

  /** A stream of `text`'s words, `pieceMs` apart; errors with an AbortError when `signal` aborts. */
  function words(text: string, signal: AbortSignal | undefined, onDone?: () => void): ReadableStream<string> {
    const pieces = text.match(/\s*\S+/g) ?? [];
    let i = 0;
    return new ReadableStream<string>({
      pull(controller) {
        return new Promise<void>((resolve) => {
          const step = () => {
            signal?.removeEventListener('abort', abort);
            if (i >= pieces.length) {
              onDone?.();
              controller.close();
            } else controller.enqueue(pieces[i++] as string);
            resolve();
          };
          const abort = () => {
            clearTimeout(timer);
            controller.error(new DOMException('The operation was aborted.', 'AbortError'));
            resolve();
          };
          if (signal?.aborted) return abort();
          const timer = setTimeout(step, pieceMs);
          signal?.addEventListener('abort', abort, { once: true });
        });
      },
    });
  }

  class LanguageModel {
    static availability(...args: unknown[]): Promise<Availability> {
      const problem = optionsProblem('LanguageModel', 'availability', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      return Promise.resolve(options.prompt === 'absent' ? 'unavailable' : (options.prompt ?? 'available'));
    }

    static create(...args: unknown[]): Promise<LanguageModel> {
      const problem = optionsProblem('LanguageModel', 'create', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const createOptions = (args[0] ?? {}) as CreateMonitorOptions & { initialPrompts?: LanguageModelMessage[] };
      return created(options.prompt === 'absent' ? 'unavailable' : (options.prompt ?? 'available'), createOptions, () => {
        stats.sessionsCreated += 1;
        return new LanguageModel(createOptions.initialPrompts ?? []);
      });
    }

    #context: LanguageModelMessage[];
    #destroyed = false;

    constructor(context: LanguageModelMessage[]) {
      this.#context = context.map((m) => ({ ...m }));
      live += 1;
    }

    get contextUsage(): number {
      return this.#used();
    }

    get contextWindow(): number {
      return contextWindow;
    }

    measureContextUsage(input: string | LanguageModelMessage[], o?: { signal?: AbortSignal }): Promise<number> {
      return aborted(o?.signal) ?? this.#alive() ?? Promise.resolve(sizeOf(input));
    }

    append(input: LanguageModelMessage[], o?: { signal?: AbortSignal }): Promise<void> {
      const problem = aborted(o?.signal) ?? this.#alive();
      if (problem) return problem;
      stats.appends += 1;
      this.#context.push(...asMessages(input));
      return Promise.resolve();
    }

    clone(o?: { signal?: AbortSignal }): Promise<LanguageModel> {
      const problem = aborted(o?.signal) ?? this.#alive();
      if (problem) return problem;
      stats.clones += 1;
      return Promise.resolve(new LanguageModel(this.#context));
    }

    promptStreaming(
      input: string | LanguageModelMessage[],
      o?: { signal?: AbortSignal; responseConstraint?: unknown },
    ): ReadableStream<string> {
      if (this.#destroyed) throw new DOMException('The session was destroyed.', 'InvalidStateError');
      const messages = asMessages(input);
      const requested = this.#used() + sizeOf(messages);
      if (requested > contextWindow) {
        throw quotaExceeded('The input is too large.', contextWindow, requested);
      }
      const context = [...this.#context, ...messages];
      const constraint = o?.responseConstraint;
      const text = constraint === undefined ? reply(context) : constrainedReply(constraint, reply(context));
      stats.prompts.push({ input: messages, contextBefore: this.#used(), responseConstraint: constraint });
      return words(text, o?.signal, () => {
        this.#context = [...context, { role: 'assistant', content: text }];
      });
    }

    destroy(): void {
      if (this.#destroyed) return;
      this.#destroyed = true;
      live -= 1;
      stats.sessionsDestroyed += 1;
    }

    #used(): number {
      return sizeOf(this.#context);
    }

    #alive(): Promise<never> | undefined {
      return this.#destroyed ? Promise.reject(new DOMException('The session was destroyed.', 'InvalidStateError')) : undefined;
    }
  }

  renameLimits(LanguageModel.prototype, options.limits ?? 'context');

  class Translator {
    static availability(...args: unknown[]): Promise<Availability> {
      const problem = optionsProblem('Translator', 'availability', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const { sourceLanguage, targetLanguage } = args[0] as LanguagePairOptions;
      return Promise.resolve(pairState(String(sourceLanguage), String(targetLanguage)));
    }

    static create(...args: unknown[]): Promise<Translator> {
      const problem = optionsProblem('Translator', 'create', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const o = args[0] as LanguagePairOptions & CreateMonitorOptions;
      return created(pairState(o.sourceLanguage, o.targetLanguage), o, () => {
        const key = `${o.sourceLanguage}→${o.targetLanguage}`;
        stats.translatorsCreated.set(key, (stats.translatorsCreated.get(key) ?? 0) + 1);
        return new Translator(o.sourceLanguage, o.targetLanguage);
      });
    }

    readonly #from: string;
    readonly #to: string;

    constructor(from: string, to: string) {
      this.#from = from;
      this.#to = to;
    }

    get inputQuota(): number {
      return inputQuota;
    }

    measureInputUsage(text: string, o?: { signal?: AbortSignal }): Promise<number> {
      return aborted(o?.signal) ?? Promise.resolve(tokens(text));
    }

    translateStreaming(text: string, o?: { signal?: AbortSignal }): ReadableStream<string> {
      if (tokens(text) > inputQuota) throw new DOMException('The input is too large.', 'QuotaExceededError');
      stats.translations += 1;
      return words(translate(text, this.#from, this.#to), o?.signal);
    }

    destroy(): void {
      stats.translatorsDestroyed += 1;
    }
  }

  class LanguageDetector {
    static availability(...args: unknown[]): Promise<Availability> {
      const problem = optionsProblem('LanguageDetector', 'availability', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      return Promise.resolve(options.detector === 'absent' ? 'unavailable' : (options.detector ?? 'available'));
    }

    static create(...args: unknown[]): Promise<LanguageDetector> {
      const problem = optionsProblem('LanguageDetector', 'create', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const o = (args[0] ?? undefined) as CreateMonitorOptions | undefined;
      return created(options.detector === 'absent' ? 'unavailable' : (options.detector ?? 'available'), o, () => {
        stats.detectorsCreated += 1;
        return new LanguageDetector();
      });
    }

    detect(text: string, o?: { signal?: AbortSignal }): Promise<Array<{ detectedLanguage: string; confidence: number }>> {
      return aborted(o?.signal) ?? Promise.resolve([{ detectedLanguage: detect(text), confidence: 0.9 }]);
    }

    destroy(): void {}
  }

  const globals: BuiltInAIGlobals = {
    ...(options.prompt === 'absent' ? {} : { LanguageModel: LanguageModel as unknown as BuiltInAIGlobals['LanguageModel'] }),
    ...(options.translation === 'absent' ? {} : { Translator: Translator as unknown as BuiltInAIGlobals['Translator'] }),
    ...(options.detector === 'absent' ? {} : { LanguageDetector: LanguageDetector as unknown as BuiltInAIGlobals['LanguageDetector'] }),
  };
  return { globals, stats };
}

type QuotaErrorClass = new (message: string, options: { quota: number; requested: number }) => DOMException;

/** Chrome's `QuotaExceededError` (a DOMException with `quota` and `requested`), or its shape where the runtime has none (Node). */
function quotaExceeded(message: string, quota: number, requested: number): DOMException {
  const Real = (globalThis as { QuotaExceededError?: QuotaErrorClass }).QuotaExceededError;
  if (Real) return new Real(message, { quota, requested });
  return Object.assign(new DOMException(message, 'QuotaExceededError'), { quota, requested });
}

const getter = (get: (this: object) => number): PropertyDescriptor => ({ get, configurable: true });

/** Gives a fake session's limits the names of an older Chrome (or none), on the prototype as a real one has them. */
function renameLimits(proto: object, limits: NonNullable<FakeBuiltInAIOptions['limits']>): void {
  if (limits === 'context') return;
  const own = (name: string) => Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor;
  const usage = own('contextUsage').get as () => number;
  const window = own('contextWindow').get as () => number;
  const measure = own('measureContextUsage').value as (...args: unknown[]) => Promise<number>;
  for (const name of ['contextUsage', 'contextWindow', 'measureContextUsage']) Reflect.deleteProperty(proto, name);
  if (limits === 'input') {
    Object.defineProperties(proto, {
      inputUsage: getter(usage),
      inputQuota: getter(window),
      measureInputUsage: { value: measure, configurable: true, writable: true },
    });
  } else if (limits === 'tokens') {
    Object.defineProperties(proto, {
      tokensSoFar: getter(usage),
      maxTokens: getter(window),
      tokensLeft: getter(function (this: object) {
        return window.call(this) - usage.call(this);
      }),
    });
  }
}
