import type { CreateEngine } from '../types.js';
import { type FakeEngine, type FakeEngineOptions, createFakeEngine } from './fakeEngine.js';
import { Sleeper } from './sleeper.js';

/** Options of `fakeEngines`: the engine's, plus how loading behaves. */
export interface FakeEnginesOptions extends FakeEngineOptions {
  /** Simulated load time per engine, reported as progress in ten steps. Default `0`. */
  loadMs?: number;
  /**
   * Makes a load fail: return an error to throw for engine `index` on its
   * `attempt`-th build (1-based), or `undefined` to let it load. Default: never.
   */
  failLoad?: (index: number, attempt: number) => unknown;
}

/** A `CreateEngine` that builds fake engines and remembers them. */
export interface FakeEngineFactory extends CreateEngine {
  /** Every engine built, oldest first. */
  readonly engines: readonly FakeEngine[];
  /** Builds started, per engine index (restarts and regrowth count). */
  readonly builds: ReadonlyMap<number, number>;
}

/**
 * The `createEngine` for an `EnginePool` of fake engines: what tests, stories
 * and the demo's simulated mode use in place of `webllmEngines`.
 *
 * @example
 * const createEngine = fakeEngines({ reply: 'Hola', tokenMs: 30, loadMs: 500 });
 * const pool = new EnginePool({ createEngine, size: 2 });
 * await pool.load();
 * createEngine.engines.length; // 1
 */
export function fakeEngines(options: FakeEnginesOptions = {}): FakeEngineFactory {
  const engines: FakeEngine[] = [];
  const builds = new Map<number, number>();
  const sleeper = new Sleeper();
  const create = async (index: number, onProgress: Parameters<CreateEngine>[1], load?: Parameters<CreateEngine>[2]) => {
    const attempt = (builds.get(index) ?? 0) + 1;
    builds.set(index, attempt);
    const loadMs = options.loadMs ?? 0;
    const steps = loadMs > 0 ? 10 : 1;
    for (let step = 1; step <= steps; step += 1) {
      await sleeper.sleep(loadMs / steps);
      // Like a real download, a load the pool no longer wants stops early.
      if (load?.signal.aborted) throw new DOMException('The load was cancelled.', 'AbortError');
      onProgress({
        progress: step / steps,
        text: `Loading simulated model: ${Math.round((100 * step) / steps)}%`,
        timeElapsed: (loadMs * step) / steps / 1000,
      });
    }
    const failure = options.failLoad?.(index, attempt);
    if (failure !== undefined) throw failure;
    const engine = createFakeEngine(options);
    engines.push(engine);
    return engine;
  };
  return Object.assign(create, { engines, builds });
}
