import type { Availability, BuiltInAIGlobals, CreateMonitorOptions, LanguageModelMessage } from '../builtInApis.js';
import type { FakeBuiltInAIOptions } from './fakeBuiltInAIOptions.js';
import { constrainedReply } from './constrainedReply.js';
import { optionsProblem } from './fakeOptionChecks.js';
import { type FakeWorld, aborted, asMessages, sizeOf } from './fakeWorld.js';

/** The fake `LanguageModel` (Prompt API) of `world`: sessions with a context, streamed replies, limits named as `options.limits` says. */
export function fakeLanguageModel(world: FakeWorld): NonNullable<BuiltInAIGlobals['LanguageModel']> {
  const { options, stats } = world;
  const contextWindow = options.contextWindow ?? 4096;
  const reply = options.reply ?? (() => 'This is a built-in reply.');

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
      return world.created(options.prompt === 'absent' ? 'unavailable' : (options.prompt ?? 'available'), createOptions, () => {
        stats.sessionsCreated += 1;
        return new LanguageModel(createOptions.initialPrompts ?? []);
      });
    }

    #context: LanguageModelMessage[];
    #destroyed = false;

    constructor(context: LanguageModelMessage[]) {
      this.#context = context.map((m) => ({ ...m }));
      world.live += 1;
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
      return world.words(text, o?.signal, () => {
        this.#context = [...context, { role: 'assistant', content: text }];
      });
    }

    destroy(): void {
      if (this.#destroyed) return;
      this.#destroyed = true;
      world.live -= 1;
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
  return LanguageModel as unknown as NonNullable<BuiltInAIGlobals['LanguageModel']>;
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
