import type { Availability, BuiltInAIGlobals, CreateMonitorOptions, LanguageModelMessage } from '../builtInApis.js';
import type { FakeBuiltInAIOptions } from './fakeBuiltInAIOptions.js';
import { constrainedReply } from './constrainedReply.js';
import { optionsProblem } from './fakeOptionChecks.js';
import { type FakeWorld, aborted, asMessages, sizeOf } from './fakeWorld.js';

/** The fake `LanguageModel` (Prompt API) of `world`: sessions with a context, streamed replies, limits named as `options.limits` says. */
export function fakeLanguageModel(world: FakeWorld): NonNullable<BuiltInAIGlobals['LanguageModel']> {
  const { options, stats } = world;
  const availability = (): Availability => (options.prompt === 'absent' ? 'unavailable' : (options.prompt ?? 'available'));

  const LanguageModel = sessionClass(world);
  renameLimits(LanguageModel.prototype, options.limits ?? 'context');
  addStatics(LanguageModel, {
    availability(...args: unknown[]): Promise<Availability> {
      const problem = optionsProblem('LanguageModel', 'availability', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      return Promise.resolve(availability());
    },
    create(...args: unknown[]): Promise<InstanceType<typeof LanguageModel>> {
      const problem = optionsProblem('LanguageModel', 'create', args.length, args[0]);
      if (problem) return Promise.reject(problem);
      const createOptions = (args[0] ?? {}) as CreateMonitorOptions & { initialPrompts?: LanguageModelMessage[] };
      return world.created(availability(), createOptions, () => {
        stats.sessionsCreated += 1;
        return new LanguageModel(createOptions.initialPrompts ?? []);
      });
    },
  });
  return LanguageModel as unknown as NonNullable<BuiltInAIGlobals['LanguageModel']>;
}

/**
 * The class of `world`'s sessions, which `fakeLanguageModel` names the limits
 * of and adds its statics to: a context that grows with each prompt and
 * reply, appends and clones.
 */
function sessionClass(world: FakeWorld) {
  const { options, stats } = world;
  const contextWindow = options.contextWindow ?? 4096;

  return class LanguageModel {
    #context: LanguageModelMessage[];

    constructor(context: LanguageModelMessage[]) {
      this.#context = context.map((m) => ({ ...m }));
      world.live += 1;
    }

    get contextUsage(): number {
      return sizeOf(this.#context);
    }

    get contextWindow(): number {
      return contextWindow;
    }

    measureContextUsage(input: string | LanguageModelMessage[], o?: { signal?: AbortSignal }): Promise<number> {
      return aborted(o?.signal) ?? alive(this) ?? Promise.resolve(sizeOf(input));
    }

    append(input: LanguageModelMessage[], o?: { signal?: AbortSignal }): Promise<void> {
      const problem = aborted(o?.signal) ?? alive(this);
      if (problem) return problem;
      stats.appends += 1;
      this.#context.push(...asMessages(input));
      return Promise.resolve();
    }

    clone(o?: { signal?: AbortSignal }): Promise<LanguageModel> {
      const problem = aborted(o?.signal) ?? alive(this);
      if (problem) return problem;
      stats.clones += 1;
      return Promise.resolve(new (this.constructor as typeof LanguageModel)(this.#context));
    }

    promptStreaming(
      input: string | LanguageModelMessage[],
      o?: { signal?: AbortSignal; responseConstraint?: unknown },
    ): ReadableStream<string> {
      if (destroyed.has(this)) throw destroyedError();
      const { text, context } = replyTo(world, this.#context, asMessages(input), o?.responseConstraint);
      return world.words(text, o?.signal, () => {
        this.#context = context;
      });
    }

    destroy(): void {
      if (destroyed.has(this)) return;
      destroyed.add(this);
      world.live -= 1;
      stats.sessionsDestroyed += 1;
    }
  };
}

/** Sessions whose `destroy()` was called: every call after is refused. */
const destroyed = new WeakSet<object>();
const destroyedError = (): DOMException => new DOMException('The session was destroyed.', 'InvalidStateError');
/** The refusal of a call to `session` once it is destroyed, like Chrome's. */
const alive = (session: object): Promise<never> | undefined => (destroyed.has(session) ? Promise.reject(destroyedError()) : undefined);

/**
 * The reply to `messages` after `context`, and the context once it is given,
 * recorded in `stats.prompts`: a `QuotaExceededError` past the context window,
 * `options.reply`'s text shaped by a response constraint.
 */
function replyTo(
  world: FakeWorld,
  context: LanguageModelMessage[],
  messages: LanguageModelMessage[],
  constraint: unknown,
): { text: string; context: LanguageModelMessage[] } {
  const contextWindow = world.options.contextWindow ?? 4096;
  const reply = world.options.reply ?? (() => 'This is a built-in reply.');
  const requested = sizeOf(context) + sizeOf(messages);
  if (requested > contextWindow) throw quotaExceeded('The input is too large.', contextWindow, requested);
  const asked = [...context, ...messages];
  const text = constraint === undefined ? reply(asked) : constrainedReply(constraint, reply(asked));
  world.stats.prompts.push({ input: messages, contextBefore: sizeOf(context), responseConstraint: constraint });
  return { text, context: [...asked, { role: 'assistant', content: text }] };
}

/** Adds `methods` to `target` the way a class declares its statics (not enumerable). */
function addStatics(target: object, methods: Record<string, (...args: unknown[]) => unknown>): void {
  for (const [name, value] of Object.entries(methods)) Object.defineProperty(target, name, { value, writable: true, configurable: true });
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
