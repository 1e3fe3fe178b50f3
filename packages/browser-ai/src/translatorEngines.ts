import { CallsInFlight } from '@inkling/scheduler/engine';
import {
  type ChatCompletionChunk,
  type CreateEngine,
  type Engine,
  type EngineCallOptions,
  InvalidJobError,
  type PoolTimers,
  type TranslationParams,
} from '@inkling/scheduler';
import { assertUsable, presenceProblem } from './apiAvailability.js';
import { type BuiltInAIGlobals, type TranslatorApi, builtInGlobals } from './builtInApis.js';
import { TRANSLATOR_RULES, checkOptions } from './engineOptions.js';
import { InputTooLongError } from './errors.js';
import { type PiecesEnd, chunk, chunkId, pieceChunks, usageChunk } from './streamChunks.js';
import { type LanguagePair, Translators, pairName } from './translators.js';

/** Options of `translatorEngines`. */
export interface TranslatorEnginesOptions {
  /**
   * Language pairs whose translators are made when the pool loads, downloading
   * their models if the browser must (a load is the person asking). Pairs not
   * listed are made on first use when their model is already on the device;
   * one that would need a download is then an `UnsupportedLanguageError`
   * (reason `'download'`) for that item. Default: none.
   */
  languages?: readonly LanguagePair[];
  /**
   * How long a download may go without progress before the load fails with
   * `BuiltInDownloadStalledError`, in ms (`Infinity`: wait for ever). Default
   * `30_000`: Chrome reports progress at least every few seconds while bytes
   * arrive; offline it reports nothing and its `create()` never settles.
   */
  downloadStallMs?: number;
  /** Where the APIs are found. Default: `globalThis`, read when the engine loads. */
  globals?: BuiltInAIGlobals;
  /** Timers for the stall bound. Default: the global ones. */
  timers?: PoolTimers;
}

/**
 * An engine over Chrome's Translator API, as `translatorEngines()` builds it.
 *
 * @example
 * const engine = (await translatorEngines()(0, () => {})) as TranslatorEngine;
 * engine.pairs; // ['en→fr'] once an en→fr item ran
 */
export interface TranslatorEngine extends Engine {
  translation: NonNullable<Engine['translation']>;
  readonly concurrency: 1;
  /** The pairs it holds a translator for (made or being made), as `'en→fr'`. */
  readonly pairs: readonly string[];
}

export const DEFAULT_DOWNLOAD_STALL_MS = 30_000;

/**
 * Engines over Chrome's Translator API (with the Language Detector API for a
 * translation that gives no `from`): translation jobs run natively, one
 * translator per language pair, made on demand and reused. The load checks
 * that the API is here and allowed, and makes the `languages` pairs
 * (downloading what it must, with progress); it fails with
 * `BuiltInAIUnavailableError` where the API is absent or blocked. Chat jobs
 * are an `InvalidJobError`: give them to a pool of a chat engine.
 *
 * @example
 * import { EnginePool } from '@inkling/scheduler';
 * import { translatorEngines } from '@inkling/browser-ai';
 *
 * const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ languages: [{ from: 'en', to: 'fr' }] }) });
 * await pool.load(); // when the person asks: may download the en→fr model
 * const { text } = await pool.submit({ kind: 'translation', params: { text: 'Good morning', from: 'en', to: 'fr' } });
 */
export function translatorEngines(options: TranslatorEnginesOptions = {}): CreateEngine {
  checkOptions(options, TRANSLATOR_RULES, 'translatorEngines');
  const stallMs = options.downloadStallMs ?? DEFAULT_DOWNLOAD_STALL_MS;
  return async (_index, onProgress, { signal } = { signal: new AbortController().signal }) => {
    const globals = builtInGlobals(options.globals);
    const languages = options.languages ?? [];
    const problem = presenceProblem(globals, 'Translator');
    if (problem) assertUsable('Translator', problem);
    const api = globals.Translator as TranslatorApi;
    const translators = new Translators(api, globals.LanguageDetector, stallMs, options.timers);
    try {
      for (const [i, pair] of languages.entries()) {
        await translators.prepare(pair, signal, (report) => onProgress({ ...report, progress: (i + report.progress) / languages.length }));
      }
    } catch (error) {
      await translators.destroyAll();
      throw error;
    }
    onProgress({ progress: 1, text: "Chrome's translator is ready." });
    return translatorEngine(translators);
  };
}

function translatorEngine(translators: Translators): TranslatorEngine {
  const running = new CallsInFlight();
  const run = async function* (params: TranslationParams, signal: AbortSignal | undefined): AsyncGenerator<ChatCompletionChunk> {
    const call = running.open(signal);
    try {
      const { text, to } = params;
      const from = params.from ?? (await translators.detect(text, to, call.signal));
      const id = chunkId('translation');
      const model = `chrome-translator:${pairName({ from, to })}`;
      if (from.toLowerCase() === to.toLowerCase() || text.trim() === '') {
        yield chunk(id, model, text, 'stop');
        return;
      }
      const translator = await translators.get({ from, to }, call.signal);
      const needed = await translator.measureInputUsage(text, { signal: call.signal });
      if (needed > translator.inputQuota) {
        throw new InputTooLongError(
          `The text is too long for Chrome's ${pairName({ from, to })} translator: it needs ${needed} of its ${translator.inputQuota} input units; split it into shorter pieces (paragraphs or sentences).`,
          needed,
          translator.inputQuota,
        );
      }
      const end: PiecesEnd = { finish: 'stop', pieces: 0 };
      yield* pieceChunks(translator.translateStreaming(text, { signal: call.signal }), { id, model, controller: call }, end);
      yield chunk(id, model, '', end.finish);
      yield usageChunk(id, model, { prompt_tokens: needed, completion_tokens: end.pieces, total_tokens: needed + end.pieces });
    } finally {
      call.release();
    }
  };
  return {
    concurrency: 1,
    get pairs() {
      return translators.pairs;
    },
    translation: {
      create: async (params: TranslationParams, options?: EngineCallOptions) => run(params, options?.signal),
    },
    chat: {
      completions: {
        create: async () => {
          throw new InvalidJobError(
            "This engine only translates (Chrome's Translator API): give chat jobs to a pool of a chat engine, such as promptEngines() where the Prompt API is available.",
          );
        },
      },
    },
    interruptGenerate() {
      running.interrupt();
    },
    unload: () => translators.destroyAll(),
  };
}
