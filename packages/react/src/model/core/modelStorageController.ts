import { type ModelStorage, type PoolTimers, type StorageRoom, type StoredModel } from '@inkling/scheduler';
import { globalTimers } from '@inkling/scheduler/engine';
import { Store } from '../../base/core/store.js';

/** What `useModelStorage` shows: the stored models, the origin's figures, persistence, and what is under way. */
export interface ModelStorageSnapshot {
  /** `'loading'` until the first read ends; `'ready'` after; `'error'` when the last action failed (`error` says why). */
  readonly status: 'loading' | 'ready' | 'error';
  readonly models: readonly StoredModel[];
  /** `undefined` until read, or where the browser gives no figures. */
  readonly room: StorageRoom | undefined;
  /** `undefined` until read, or where the browser cannot say. */
  readonly persisted: boolean | undefined;
  /** The model being deleted (`'*'` for all), or `undefined`. */
  readonly deleting: string | undefined;
  readonly error: Error | undefined;
}

const INITIAL: ModelStorageSnapshot = {
  status: 'loading',
  models: [],
  room: undefined,
  persisted: undefined,
  deleting: undefined,
  error: undefined,
};

/** Options of `ModelStorageController`. */
export interface ModelStorageControllerOptions {
  /** While a model is being downloaded or loaded (`StoredModel.busy`), how often to read again (ms). Default `1000`. */
  busyPollMs?: number;
  /** Timers for that. Default: the global ones. */
  timers?: PoolTimers;
}

/**
 * A `ModelStorage` as an external store: reads it when the first listener
 * arrives, again after each delete or persistence request, and every
 * `busyPollMs` while some tab downloads or loads a model (so another tab's
 * download shows its progress, and its end). Failures are state
 * (`status: 'error'`, `error`), never thrown at the caller; the last good
 * list stays.
 *
 * @example
 * const controller = new ModelStorageController(wllamaModelStorage());
 * const stop = controller.subscribe(() => console.log(controller.getSnapshot().models));
 */
export class ModelStorageController extends Store<ModelStorageSnapshot> {
  readonly #storage: ModelStorage;
  readonly #pollMs: number;
  readonly #timers: PoolTimers;
  #reads = 0;
  #poll: unknown;
  #started = false;

  constructor(storage: ModelStorage, options: ModelStorageControllerOptions = {}) {
    super(INITIAL);
    this.#storage = storage;
    this.#pollMs = options.busyPollMs ?? 1000;
    this.#timers = options.timers ?? globalTimers;
  }

  protected override onStart(): void {
    this.#started = true;
    void this.refresh();
  }

  protected override onStop(): void {
    this.#started = false;
    this.#stopPolling();
  }

  /** Reads the storage again. */
  readonly refresh = async (): Promise<void> => {
    const read = (this.#reads += 1);
    this.#stopPolling();
    try {
      const { models, room, persisted } = await this.#storage.read();
      if (read !== this.#reads) return;
      this.commit({ ...this.state, status: 'ready', models, room, persisted, error: undefined }, 'now');
      if (this.#started && models.some((model) => model.busy !== undefined)) {
        this.#poll = this.#timers.setTimeout(() => {
          this.#poll = undefined;
          void this.refresh();
        }, this.#pollMs);
      }
    } catch (error) {
      if (read === this.#reads) this.#fail(error);
    }
  };

  #stopPolling(): void {
    if (this.#poll !== undefined) this.#timers.clearTimeout(this.#poll);
    this.#poll = undefined;
  }

  /** Deletes one model (`'*'`: all), then reads again. Resolves `false` when it failed (see `error`). */
  readonly remove = async (model: string): Promise<boolean> => {
    this.commit({ ...this.state, deleting: model }, 'now');
    try {
      await (model === '*' ? this.#storage.deleteAll() : this.#storage.delete(model));
      this.commit({ ...this.state, deleting: undefined }, 'now');
      await this.refresh();
      return true;
    } catch (error) {
      this.#fail(error);
      await this.refresh().catch(() => {});
      // The read's success must not hide why the delete failed.
      this.#fail(error);
      return false;
    }
  };

  /** Asks the browser to keep the storage; resolves with whether it is granted (and the state says so). */
  readonly persist = async (): Promise<boolean> => {
    const granted = await this.#storage.persist();
    this.commit({ ...this.state, persisted: granted || this.state.persisted === true }, 'now');
    return granted;
  };

  #fail(error: unknown): void {
    this.commit(
      { ...this.state, status: 'error', deleting: undefined, error: error instanceof Error ? error : new Error(String(error)) },
      'now',
    );
  }
}
