import type { CreateEngine } from '@inkling/scheduler';
import type { BuiltInAIProbe } from './detectBuiltInAI.js';

/** A feature the built-in APIs may serve. */
export type BuiltInFeature = 'prompt' | 'translation';

/**
 * What another chooser decided (`chooseEngines` of `@inkling/wllama` returns this shape).
 *
 * @example
 * const cpu = (): OtherEngineChoice<'cpu'> => ({ kind: 'cpu', reason: 'No WebGPU.', createEngine: wllamaEngines({ model, wasmUrl }) });
 */
export interface OtherEngineChoice<Kind extends string = string> {
  kind: Kind;
  reason: string;
  createEngine: CreateEngine;
}

/** Options of `preferBuiltIn`. */
export interface PreferBuiltInOptions<Kind extends string> {
  /** What `detectBuiltInAI()` found. Required. */
  probe: BuiltInAIProbe;
  /** Which feature this pool serves. Required. */
  feature: BuiltInFeature;
  /** Builds the built-in engines, e.g. `() => translatorEngines({ languages })`. Called only when chosen. Required. */
  builtIn: () => CreateEngine;
  /** Chooses among the other engines, e.g. `() => chooseEngines({ probe: gpu, webgpu, cpu })`. Called only when chosen. Required. */
  otherwise: () => OtherEngineChoice<Kind>;
  /** Take a built-in model that must first be downloaded by the browser (it downloads on the pool's load). Default `true`. */
  allowDownload?: boolean;
}

/**
 * Prefers the browser's own model for one feature, and otherwise hands the
 * choice to another chooser (WebGPU, then the CPU, as `chooseEngines` of
 * `@inkling/wllama` decides), keeping the built-in probe's reason so a
 * settings screen can say why it was not used. It takes both probes' results
 * rather than making them, so no engine package depends on another.
 *
 * @example
 * import { detectBuiltInAI, preferBuiltIn, translatorEngines } from '@inkling/browser-ai';
 * import { chooseEngines } from '@inkling/wllama';
 *
 * const probe = await detectBuiltInAI({ translation: { from: 'en', to: 'fr' } });
 * const translation = preferBuiltIn({
 *   probe,
 *   feature: 'translation',
 *   builtIn: () => translatorEngines({ languages: [{ from: 'en', to: 'fr' }] }),
 *   otherwise: () => chooseEngines({ probe: gpu, webgpu, cpu }),
 * });
 * console.log(translation.kind, translation.reason); // 'built-in', "Chrome's built-in translator ..."
 */
export function preferBuiltIn<Kind extends string>(
  options: PreferBuiltInOptions<Kind>,
): OtherEngineChoice<Kind | 'built-in'> & { builtInReason: string } {
  const found = options.probe[options.feature];
  const download = found.state === 'downloadable' || found.state === 'downloading';
  if (found.usable && (options.allowDownload !== false || !download)) {
    return { kind: 'built-in', reason: found.reason, builtInReason: found.reason, createEngine: options.builtIn() };
  }
  const other = options.otherwise();
  const why = found.usable ? `${found.reason} Not chosen: downloads are not allowed.` : found.reason;
  return { ...other, reason: `${why} ${other.reason}`, builtInReason: why };
}
