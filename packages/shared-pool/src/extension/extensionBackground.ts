import { InvalidOptionError, type PoolTimers } from '@inkling/scheduler';
import { type Rule, durationRule, firstProblem, globalTimers, isText, optional, unknownKey } from '@inkling/scheduler/engine';
import { HostUnavailableError } from '../errors.js';
import { type ChromeLike, type RuntimeMessageListener, chromeApi } from './chromeApi.js';
import { type EnsureAnswer, extensionMessage, messageOf } from './messages.js';

/** Options of `extensionBackground`. */
export interface ExtensionBackgroundOptions {
  /** The offscreen document that runs `hostOffscreenPool`, relative to the extension's root. Default `'offscreen.html'`. */
  url?: string;
  /** Why it exists, as `chrome.offscreen.Reason` values. Default `['WORKERS']`. */
  reasons?: string[];
  /** What it does, shown by Chrome. Default: "Runs the language model engines shared by the extension's pages and tabs." */
  justification?: string;
  /**
   * How long a new document may take to say it listens (its script loaded,
   * `hostOffscreenPool` called), in milliseconds, 0 to 2^31-1; then
   * `ensureOffscreen` rejects with a `HostUnavailableError`. Default `10000`.
   */
  readyTimeoutMs?: number;
  /** The `chrome` namespace. Default: the global one, looked up when called. */
  chrome?: ChromeLike;
  /** Timers for `readyTimeoutMs`. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
}

/** What `extensionBackground` returns. */
export interface ExtensionBackground {
  /**
   * Makes sure the offscreen document exists and listens: creates it if
   * there is none (a first start, or one that was closed), then waits for it
   * to say it is ready. Calls that overlap share one attempt, so two at once
   * both resolve (Chrome allows one document). Rejects with a
   * `HostUnavailableError` saying what failed.
   */
  ensureOffscreen(): Promise<void>;
  /** Stops answering clients' requests. */
  stop(): void;
}

/**
 * The service worker's part: keeps the offscreen document that hosts the
 * pool, and makes it again when a client asks (`extensionPoolClient` asks
 * before each connection, so a document that was closed or crashed comes
 * back on the next request). Call it at the top level of the worker's
 * script, so its listener is there each time the worker starts. It holds no
 * state a stopped worker would lose: the pool lives in the document.
 *
 * @example
 * // background.ts
 * import { extensionBackground } from '@inkling/shared-pool/extension';
 * extensionBackground({ url: 'offscreen.html' });
 */
export function extensionBackground(options: ExtensionBackgroundOptions = {}): ExtensionBackground {
  const {
    url = 'offscreen.html',
    reasons = ['WORKERS'],
    justification = "Runs the language model engines shared by the extension's pages and tabs.",
    readyTimeoutMs = 10_000,
    timers = globalTimers,
  } = options;
  checkOptions(options);
  const api = chromeApi(options.chrome, 'extensionBackground()');
  const waiting = new Set<() => void>();
  let attempt: Promise<void> | undefined;

  const ensureOffscreen = (): Promise<void> =>
    (attempt ??= make().finally(() => {
      attempt = undefined;
    }));

  async function make(): Promise<void> {
    const ready = new Promise<boolean>((resolve) => {
      const done = (heard: boolean) => {
        timers.clearTimeout(timer);
        waiting.delete(onReady);
        resolve(heard);
      };
      const onReady = () => done(true);
      const timer = timers.setTimeout(() => done(false), readyTimeoutMs);
      waiting.add(onReady);
    });
    try {
      if (!(await offscreenExists(api, url))) await createOffscreen(api, { url, reasons, justification });
      if (await offscreenListens(api)) return;
      if (await ready) return;
    } catch (error) {
      if (error instanceof HostUnavailableError) throw error;
      throw new HostUnavailableError(`Could not look for the offscreen document ${url}: ${messageOf(error)}`, { cause: error });
    } finally {
      for (const onReady of [...waiting]) onReady();
    }
    throw new HostUnavailableError(
      `The offscreen document ${url} did not say it was ready within ${readyTimeoutMs} ms: check that its script calls hostOffscreenPool() and loads without errors (inspect it from chrome://extensions).`,
    );
  }

  const onMessage: RuntimeMessageListener = (message, _sender, sendResponse) => {
    const kind = extensionMessage(message);
    if (kind === 'offscreen-ready') for (const onReady of [...waiting]) onReady();
    if (kind !== 'ensure-offscreen') return undefined;
    ensureOffscreen().then(
      () => sendResponse({ ok: true } satisfies EnsureAnswer),
      (error: unknown) => sendResponse({ ok: false, error: messageOf(error) } satisfies EnsureAnswer),
    );
    return true;
  };
  api.runtime.onMessage.addListener(onMessage);
  return { ensureOffscreen, stop: () => api.runtime.onMessage.removeListener(onMessage) };
}

/** Whether the offscreen document at `url` is open (`runtime.getContexts`, or `offscreen.hasDocument` before Chrome 116). */
async function offscreenExists(api: ChromeLike, url: string): Promise<boolean> {
  if (typeof api.runtime.getContexts === 'function') {
    const contexts = await api.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [api.runtime.getURL(url)] });
    return contexts.length > 0;
  }
  return (await api.offscreen?.hasDocument?.()) === true;
}

/** Opens the offscreen document; one made meanwhile counts as made. */
async function createOffscreen(api: ChromeLike, document: { url: string; reasons: string[]; justification: string }): Promise<void> {
  if (typeof api.offscreen?.createDocument !== 'function') {
    throw new HostUnavailableError('chrome.offscreen is missing: add "offscreen" to the manifest\'s "permissions" (Chrome 109 or later).');
  }
  try {
    await api.offscreen.createDocument(document);
  } catch (error) {
    // Made meanwhile by another worker instance, or a call that did not go through ensureOffscreen.
    if (/single offscreen/i.test(messageOf(error))) return;
    throw new HostUnavailableError(`Could not create the offscreen document ${document.url}: ${messageOf(error)}`, { cause: error });
  }
}

/** Whether a document answers the ping (one made before this worker started listens already). */
async function offscreenListens(api: ChromeLike): Promise<boolean> {
  try {
    const answer = await api.runtime.sendMessage({ inkling: 'offscreen-ping' });
    return (answer as { ready?: unknown } | undefined)?.ready === true;
  } catch {
    return false;
  }
}

/** `extensionBackground`'s options, checked in this order. */
const RULES: readonly Rule[] = [
  ['url', optional(isText), "the offscreen document's path, e.g. 'offscreen.html'"],
  [
    'reasons',
    optional((reasons) => Array.isArray(reasons) && reasons.length > 0),
    "a non-empty array of chrome.offscreen.Reason values, e.g. ['WORKERS']",
  ],
  durationRule('readyTimeoutMs', { never: false }),
];

function checkOptions(options: ExtensionBackgroundOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError("extensionBackground() takes an options object such as { url: 'offscreen.html' }.");
  }
  const problem =
    unknownKey(options, RULES, 'extensionBackground ', ['justification', 'chrome', 'timers']) ??
    firstProblem(options, RULES, 'extensionBackground ');
  if (problem) throw new InvalidOptionError(problem);
}
