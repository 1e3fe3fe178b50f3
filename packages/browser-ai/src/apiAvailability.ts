import { type Availability, type BuiltInAIGlobals, type BuiltInApiName, POLICY_FEATURE } from './builtInApis.js';
import { BuiltInAIUnavailableError } from './errors.js';

/**
 * An API's state here: what `availability()` answers, or why it cannot be asked.
 *
 * @example
 * const state: BuiltInState = (await detectBuiltInAI()).translation.state; // 'downloadable'
 */
export type BuiltInState = Availability | 'absent' | 'blocked';

/**
 * What a probe found for one feature, with the reason in words for a settings screen.
 *
 * @example
 * const { prompt } = await detectBuiltInAI();
 * if (!prompt.usable) notice.textContent = prompt.reason;
 */
export interface FeatureProbe {
  readonly state: BuiltInState;
  /** Whether it can be used, now or after a download the person asks for. */
  readonly usable: boolean;
  readonly reason: string;
}

const WHAT: Readonly<Record<BuiltInApiName, string>> = {
  LanguageModel: "Chrome's built-in model (the Prompt API)",
  Translator: "Chrome's built-in translator (the Translator API)",
  LanguageDetector: "Chrome's built-in language detector",
};

/**
 * Asks one API's `availability()` (never `create()`, so nothing downloads),
 * and says in words what the answer means. A missing API, a permissions
 * policy that blocks it, or an `availability()` that throws are answers too.
 */
export async function apiAvailability(globals: BuiltInAIGlobals, api: BuiltInApiName, options?: object): Promise<FeatureProbe> {
  const what = WHAT[api];
  const missing = presenceProblem(globals, api);
  if (missing) return missing;
  const target = globals[api] as { availability: (options?: object) => Promise<Availability> };
  try {
    const state = await target.availability(options);
    return probe(state, REASON[state]?.(what, api) ?? `${what} answered "${String(state)}".`);
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'NotAllowedError') {
      return probe('blocked', `${what} is blocked on this page by a permissions policy: allow "${POLICY_FEATURE[api]}".`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return probe('unavailable', `${what} could not say whether it can run: ${message}`);
  }
}

/** Why an API cannot even be asked (absent, or blocked by a permissions policy); `undefined` when it can. */
export function presenceProblem(globals: BuiltInAIGlobals, api: BuiltInApiName): FeatureProbe | undefined {
  const what = WHAT[api];
  const target = globals[api] as { availability?: unknown; create?: unknown } | undefined;
  if (typeof target?.availability !== 'function' || typeof target.create !== 'function') {
    return probe(
      'absent',
      `${what} is not in this browser: it ships in desktop Chrome and Edge (138 and later for translation, 148 for prompts), not on mobile or in other browsers.`,
    );
  }
  if (globals.document?.featurePolicy?.allowsFeature(POLICY_FEATURE[api]) === false) {
    return probe(
      'blocked',
      `${what} is blocked on this page by a permissions policy: allow "${POLICY_FEATURE[api]}" (the Permissions-Policy header, or an iframe's allow attribute).`,
    );
  }
  return undefined;
}

const REASON: Partial<Record<BuiltInState, (what: string, api: BuiltInApiName) => string>> = {
  available: (what) => `${what} is ready on this device.`,
  downloadable: (what) =>
    `${what} can run here after a one-time download by the browser (shared by every site), which starts when you ask for it.`,
  downloading: (what) => `${what} is being downloaded by the browser.`,
  unavailable: (what, api) =>
    `${what} cannot run on this device${api === 'Translator' ? ' for this language pair' : ''} (Chrome asks for 22 GB of free disk and a GPU with more than 4 GB of memory, or 16 GB of RAM).`,
};

function probe(state: BuiltInState, reason: string): FeatureProbe {
  return { state, usable: state === 'available' || state === 'downloadable' || state === 'downloading', reason };
}

/** Throws the typed load error for a probe that cannot be used. */
export function assertUsable(api: BuiltInApiName, found: FeatureProbe): void {
  if (found.usable) return;
  const reason = found.state === 'absent' || found.state === 'blocked' ? found.state : 'unavailable';
  throw new BuiltInAIUnavailableError(found.reason, api, reason);
}
