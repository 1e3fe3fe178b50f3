import { defaultStorageManager, requestPersistence, type StorageManagerLike } from '@inkling/scheduler/storage';
import { InklingError, type ModelStorage, type ModelStorageState, type StoredModel } from '@inkling/scheduler';
import { apiAvailability } from './apiAvailability.js';
import { type BuiltInAIGlobals, builtInGlobals } from './builtInApis.js';

/** Where a person sees and removes the browser's own models (Chrome's page for them). */
const SETTINGS = 'chrome://on-device-internals';

/**
 * A page asked to delete one of the browser's built-in models: only the
 * person can, in the browser (Chrome: `chrome://on-device-internals`, or
 * by clearing the browser's data). Nothing was deleted.
 *
 * @example
 * try { await storage.delete(model); } catch (e) { if (e instanceof BrowserManagedModelError) show(e.message); }
 */
export class BrowserManagedModelError extends InklingError {
  override name = 'BrowserManagedModelError';
  override readonly kind = 'refused';
  override readonly device = 'browser';
  readonly model: string;

  constructor(model: string) {
    super(
      `${model} is kept by the browser for every site, so a page cannot delete it. The person can remove it in the browser (in Chrome: ${SETTINGS}).`,
    );
    this.model = model;
  }
}

/** Options of `browserAIModelStorage`. */
export interface BrowserAIModelStorageOptions {
  /** The language pairs whose translation models to report (`{ from: 'en', to: 'fr' }`). Default: none. */
  translations?: ReadonlyArray<{ from: string; to: string }>;
  /** Report the Language Detector's model (used for a translation without `from`). Default `true`. */
  languageDetector?: boolean;
  /** Where the APIs are found. Default `globalThis`, looked up when read. */
  globals?: BuiltInAIGlobals;
  /** The storage `persist()` asks. Default: `navigator.storage`, looked up when used. */
  storage?: StorageManagerLike;
}

/**
 * The browser's own built-in AI models (Chrome's Gemini Nano for the Prompt
 * API, its translation and language-detection models) as a read-only
 * `ModelStorage`, so `<ModelManager>` shows them beside the others. A model
 * is listed when `availability()` says `'available'` (stored, complete) or
 * `'downloading'` (partial); `'downloadable'` and `'unavailable'` ones are
 * not on this device and are left out. Nothing is ever downloaded: only
 * `availability()` is asked. The browser does not say their size, so
 * `bytes` and `totalBytes` are `undefined`. They are kept for every site and
 * managed by the person in the browser, so `delete` rejects with
 * `BrowserManagedModelError` (and each model says why in `cannotDelete`).
 * They are outside this origin's quota and its persistence, so `read()`
 * reports `room` and `persisted` as `undefined` (a `<ModelManager>` then
 * offers no "Keep them" that would not keep them); `persist()` asks for the
 * origin's persistence, as the other storages do.
 *
 * @example
 * const builtIn = browserAIModelStorage({ translations: [{ from: 'en', to: 'de' }] }); // at module scope
 * <ModelManager storage={builtIn} />
 */
export function browserAIModelStorage(options: BrowserAIModelStorageOptions = {}): ModelStorage {
  const manager = () => options.storage ?? defaultStorageManager();
  const storage: ModelStorage = {
    async read(): Promise<ModelStorageState> {
      const globals = builtInGlobals(options.globals);
      const asked: Array<{ model: string; label: string; state: Promise<{ state: string }> }> = [
        { model: 'LanguageModel', label: "Chrome's built-in model (Prompt API)", state: apiAvailability(globals, 'LanguageModel') },
        ...(options.translations ?? []).map(({ from, to }) => ({
          model: `Translator:${from}-${to}`,
          label: `Chrome's translation model, ${from} → ${to}`,
          state: apiAvailability(globals, 'Translator', { sourceLanguage: from, targetLanguage: to }),
        })),
        ...(options.languageDetector === false
          ? []
          : [
              {
                model: 'LanguageDetector',
                label: "Chrome's language detection model",
                state: apiAvailability(globals, 'LanguageDetector'),
              },
            ]),
      ];
      const models: StoredModel[] = [];
      for (const { model, label, state } of asked) {
        const { state: answer } = await state;
        if (answer !== 'available' && answer !== 'downloading') continue;
        models.push({
          model,
          label,
          bytes: undefined,
          totalBytes: undefined,
          complete: answer === 'available',
          lastUsed: undefined,
          cannotDelete: `Kept by the browser for every site; remove it in the browser (${SETTINGS}).`,
        });
      }
      return { models, room: undefined, persisted: undefined };
    },
    delete: async (model: string) => {
      throw new BrowserManagedModelError(model);
    },
    async deleteAll(): Promise<void> {
      const { models } = await storage.read();
      if (models[0]) throw new BrowserManagedModelError(models[0].model);
    },
    persist: () => requestPersistence(manager()),
  };
  return storage;
}
