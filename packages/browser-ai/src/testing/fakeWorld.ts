import type { Availability, CreateMonitorOptions, LanguageModelMessage } from '../builtInApis.js';
import type { FakeBuiltInAIOptions, FakeBuiltInAIStats } from './fakeBuiltInAIOptions.js';

/** A rejection like Chrome's when `signal` has aborted already. */
export const aborted = (signal: AbortSignal | undefined): Promise<never> | undefined =>
  signal?.aborted ? Promise.reject(new DOMException('The operation was aborted.', 'AbortError')) : undefined;
/** The fake's tokens: 4 characters each. */
export const tokens = (text: string): number => Math.ceil(text.length / 4);
/** The tokens of a prompt or a conversation (a token per message besides its text). */
export const sizeOf = (input: string | readonly LanguageModelMessage[]): number =>
  typeof input === 'string' ? tokens(input) : input.reduce((n, m) => n + tokens(m.content) + 1, 0);
/** A prompt as messages (copied). */
export const asMessages = (input: string | LanguageModelMessage[]): LanguageModelMessage[] =>
  typeof input === 'string' ? [{ role: 'user', content: input }] : input.map((m) => ({ ...m }));

/** What the fake APIs of one `createFakeBuiltInAI` share: its options, its counts, downloads and streams on its clock. */
export interface FakeWorld {
  readonly options: FakeBuiltInAIOptions;
  readonly stats: FakeBuiltInAIStats;
  /** Prompt API sessions alive now (`stats.liveSessions` reads it). */
  live: number;
  /** Resolves `make()` after the download steps when `state` says it must download first. */
  created<T>(state: Availability, monitored: CreateMonitorOptions | undefined, make: () => T): Promise<T>;
  /** A stream of `text`'s words, `pieceMs` apart; errors with an AbortError when `signal` aborts. */
  words(text: string, signal: AbortSignal | undefined, onDone?: () => void): ReadableStream<string>;
}

/** The shared part of a fake: counts start at 0. */
export function fakeWorld(options: FakeBuiltInAIOptions): FakeWorld {
  const pieceMs = options.pieceMs ?? 1;
  const activation = options.userActivation;
  const activated = (): boolean =>
    typeof activation === 'function'
      ? activation()
      : (activation ??
        (globalThis as { navigator?: { userActivation?: { isActive?: boolean } } }).navigator?.userActivation?.isActive === true);
  const world: FakeWorld = {
    options,
    live: 0,
    stats: {
      sessionsCreated: 0,
      clones: 0,
      appends: 0,
      prompts: [],
      sessionsDestroyed: 0,
      get liveSessions() {
        return world.live;
      },
      translatorsCreated: new Map(),
      translations: 0,
      translatorsDestroyed: 0,
      detectorsCreated: 0,
      downloads: 0,
    },
    created: (state, monitored, make) => created(world, activated, state, monitored, make),
    words: (text, signal, onDone) => words(pieceMs, text, signal, onDone),
  };
  return world;
}

/** `FakeWorld.created`: a download needs a person's click or key press, and reports its steps `pieceMs` apart. */
function created<T>(
  world: FakeWorld,
  activated: () => boolean,
  state: Availability,
  monitored: CreateMonitorOptions | undefined,
  make: () => T,
): Promise<T> {
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
  world.stats.downloads += 1;
  const steps = world.options.download ?? [0, 0.5, 1];
  return new Promise<T>((resolve, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    if (steps === 'never') return;
    let i = 0;
    const next = () => {
      if (signal?.aborted) return;
      if (i >= steps.length) return resolve(make());
      target.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: steps[i] }));
      i += 1;
      setTimeout(next, world.options.pieceMs ?? 1);
    };
    next();
  });
}

/** `FakeWorld.words`. */
function words(pieceMs: number, text: string, signal: AbortSignal | undefined, onDone?: () => void): ReadableStream<string> {
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
