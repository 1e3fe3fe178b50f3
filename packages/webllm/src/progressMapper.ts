import type { LoadProgress } from '@inkling/scheduler';
import type { WebLLMProgressReport } from './types.js';

/** The step of a WebLLM load a progress report belongs to. */
export type LoadPhase = 'fetch' | 'load' | 'shaders' | 'ready' | 'other';

/** A load progress report with one overall fraction that only grows. */
export interface WebLLMLoadProgress extends LoadProgress {
  /** 0..1 over the whole load; never goes back. */
  progress: number;
  /** WebLLM's own words for the current step. */
  text: string;
  phase: LoadPhase;
  /** WebLLM's fraction of the current step (it restarts at 0 in each step). */
  phaseProgress: number;
}

// Shares of the overall bar. Downloading dominates a first visit; from the
// cache, copying the weights to the GPU does.
const FIRST_VISIT: Record<'fetch' | 'load' | 'shaders', readonly [number, number]> = {
  fetch: [0, 0.8],
  load: [0.8, 0.95],
  shaders: [0.95, 0.995],
};
const FROM_CACHE: Record<'fetch' | 'load' | 'shaders', readonly [number, number]> = {
  fetch: [0, 0],
  load: [0, 0.9],
  shaders: [0.9, 0.995],
};

/**
 * Turns WebLLM's `InitProgressReport`s, whose `progress` restarts at 0 in each
 * step (fetching the weights, copying them to the GPU, compiling shaders),
 * into one fraction over the whole load that never goes back.
 *
 * @example
 * const mapper = new ProgressMapper();
 * engineConfig.initProgressCallback = (report) => onProgress(mapper.map(report));
 */
export class ProgressMapper {
  #overall = 0;
  #fetched = false;

  map(report: WebLLMProgressReport): WebLLMLoadProgress {
    const phase = phaseOf(report.text);
    const phaseProgress = clamp(report.progress);
    if (phase === 'fetch') this.#fetched = true;
    if (phase === 'ready') this.#overall = 1;
    else if (phase !== 'other') {
      const [from, to] = (this.#fetched ? FIRST_VISIT : FROM_CACHE)[phase];
      this.#overall = Math.max(this.#overall, from + (to - from) * phaseProgress);
    }
    return {
      progress: this.#overall,
      text: report.text,
      timeElapsed: report.timeElapsed,
      phase,
      phaseProgress,
    };
  }
}

function phaseOf(text: string): LoadPhase {
  if (/^Start to fetch|^Fetching param cache/i.test(text)) return 'fetch';
  if (/^Loading model from cache/i.test(text)) return 'load';
  if (/shader modules/i.test(text)) return 'shaders';
  if (/^Finish loading/i.test(text)) return 'ready';
  return 'other';
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
