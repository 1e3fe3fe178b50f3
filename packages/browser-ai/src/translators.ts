import type { LoadProgress, PoolTimers } from '@inkling/scheduler';
import type { LanguageDetectorApi, LanguageDetectorInstance, TranslatorApi, TranslatorInstance } from './builtInApis.js';
import { createWithDownload } from './createWithDownload.js';
import { UnsupportedLanguageError } from './errors.js';

/**
 * A language pair, as BCP 47 tags.
 *
 * @example
 * translatorEngines({ languages: [{ from: 'en', to: 'fr' } satisfies LanguagePair] });
 */
export interface LanguagePair {
  from: string;
  to: string;
}

/** `en→fr`, as messages and keys name a pair. */
export function pairName({ from, to }: LanguagePair): string {
  return `${from}→${to}`;
}

/**
 * The translators of one engine: one per language pair, created on first use
 * and reused by every later item of that pair; a failed creation is
 * forgotten so a later item may try again. A pair whose model still has to
 * be downloaded is created only by `prepare` (the pool's load: the person
 * asked); a job never starts a download.
 */
export class Translators {
  readonly #translators = new Map<string, Promise<TranslatorInstance>>();
  #detector: Promise<LanguageDetectorInstance> | undefined;
  readonly #api: TranslatorApi;
  readonly #detectorApi: LanguageDetectorApi | undefined;
  readonly #stallMs: number;
  readonly #timers: PoolTimers | undefined;

  constructor(api: TranslatorApi, detectorApi: LanguageDetectorApi | undefined, stallMs: number, timers: PoolTimers | undefined) {
    this.#api = api;
    this.#detectorApi = detectorApi;
    this.#stallMs = stallMs;
    this.#timers = timers;
  }

  /** Pairs with a translator made or being made. */
  get pairs(): string[] {
    return [...this.#translators.keys()];
  }

  /** Makes the pair's translator, downloading its model when it must (a load the person asked for). */
  prepare(pair: LanguagePair, signal: AbortSignal | undefined, onProgress?: (report: LoadProgress) => void): Promise<TranslatorInstance> {
    return this.#get(pair, signal, true, onProgress);
  }

  /** The pair's translator for a job: made on first use when its model is already on the device. */
  get(pair: LanguagePair, signal: AbortSignal | undefined): Promise<TranslatorInstance> {
    return this.#get(pair, signal, false);
  }

  /** The language of `text`, by the Language Detector API; a typed error that says to give `from` when it cannot tell. */
  async detect(text: string, to: string, signal: AbortSignal | undefined): Promise<string> {
    const fail = (why: string, cause?: unknown) =>
      new UnsupportedLanguageError(
        `No source language was given for a translation into ${to}, and ${why}: give "from".`,
        { from: 'auto', to, reason: 'undetected' },
        { cause },
      );
    const api = this.#detectorApi;
    if (typeof api?.create !== 'function') throw fail("this browser has no language detector (Chrome's LanguageDetector API)");
    if (!this.#detector) {
      const made = (async () => {
        const state = await api.availability();
        if (state !== 'available') throw fail(`Chrome's language detector is "${state}" here`);
        return createWithDownload((options) => api.create(options), {
          what: 'the language detector',
          signal,
          stallMs: this.#stallMs,
          timers: this.#timers,
        });
      })();
      this.#detector = made;
      made.catch(() => {
        if (this.#detector === made) this.#detector = undefined;
      });
    }
    let found: Array<{ detectedLanguage: string; confidence: number }>;
    try {
      found = await (await this.#detector).detect(text, { signal });
    } catch (error) {
      if (error instanceof UnsupportedLanguageError) throw error;
      throw fail('the language detector failed', error);
    }
    const best = found[0];
    if (!best || best.detectedLanguage === 'und') throw fail('its language could not be told');
    return best.detectedLanguage;
  }

  /** Destroys every translator and the detector. */
  async destroyAll(): Promise<void> {
    const made = [...this.#translators.values(), ...(this.#detector ? [this.#detector] : [])];
    this.#translators.clear();
    this.#detector = undefined;
    await Promise.all(
      made.map((p) =>
        p.then(
          (t) => t.destroy(),
          () => {},
        ),
      ),
    );
  }

  #get(
    pair: LanguagePair,
    signal: AbortSignal | undefined,
    download: boolean,
    onProgress?: (report: LoadProgress) => void,
  ): Promise<TranslatorInstance> {
    const key = pairName(pair);
    const known = this.#translators.get(key);
    if (known) return known;
    const made = this.#make(pair, signal, download, onProgress);
    this.#translators.set(key, made);
    made.catch(() => {
      if (this.#translators.get(key) === made) this.#translators.delete(key);
    });
    return made;
  }

  async #make(
    pair: LanguagePair,
    signal: AbortSignal | undefined,
    download: boolean,
    onProgress?: (report: LoadProgress) => void,
  ): Promise<TranslatorInstance> {
    const { from, to } = pair;
    const languages = { sourceLanguage: from, targetLanguage: to };
    const name = pairName(pair);
    let state: string;
    try {
      state = await this.#api.availability(languages);
    } catch (error) {
      throw new UnsupportedLanguageError(
        `Cannot translate ${name}: ${error instanceof Error ? error.message : String(error)}. Give languages as BCP 47 tags such as "en" or "pt-BR".`,
        { from, to, reason: 'invalid' },
        { cause: error },
      );
    }
    if (state === 'unavailable') {
      throw new UnsupportedLanguageError(
        `Chrome's translator cannot translate ${name} on this device: translate this pair with a chat engine instead.`,
        { from, to, reason: 'unavailable' },
      );
    }
    if (state !== 'available' && !download) {
      throw new UnsupportedLanguageError(
        `The ${name} translator must be downloaded first (the browser answers "${state}"): list { from: '${from}', to: '${to}' } in "languages" and load the pool when the person asks.`,
        { from, to, reason: 'download' },
      );
    }
    return createWithDownload((options) => this.#api.create({ ...languages, ...options }), {
      what: `the ${name} translator`,
      signal,
      onProgress,
      stallMs: this.#stallMs,
      timers: this.#timers,
    });
  }
}
