import type { ButtonHTMLAttributes, HTMLAttributes } from 'react';
import { formatBytes, formatDuration, secondsLeft } from './core/formatLoad.js';
import { loadErrorAdvice } from './core/loadErrorAdvice.js';
import type { DataAttributes } from '../base/dataAttributes.js';
import { type UseModelLoadResult, useModelLoad } from './useModelLoad.js';

/** Words `ModelLoadProgress` shows; translate them here. */
export interface ModelLoadProgressLabels {
  /** The progress bar's accessible name. */
  progress: string;
  idle: string;
  loading: string;
  ready: string;
  error: string;
  load: string;
  retry: string;
  /** The retry button's words where the browser downloads only from a click (a built-in model). */
  download: string;
  /** The summary of the error's own message (for developers), shown on request. */
  details: string;
  /** `120 MB of 800 MB`. */
  bytes: (loaded: string, total: string | null) => string;
  /** `about 30 s left`. */
  timeLeft: (duration: string) => string;
}

const DEFAULT_LABELS: ModelLoadProgressLabels = {
  progress: 'Model download',
  idle: 'Model not loaded',
  loading: 'Loading model…',
  ready: 'Model ready',
  error: 'The model could not be loaded',
  load: 'Load model',
  retry: 'Try again',
  download: 'Download model',
  details: 'Details',
  bytes: (loaded, total) => (total ? `${loaded} of ${total}` : `${loaded} fetched`),
  timeLeft: (duration) => `${duration} left`,
};

/** Props of `useModelLoadProgress` and `ModelLoadProgress`. */
export interface ModelLoadProgressProps {
  /** Words shown. Default: English. */
  labels?: Partial<ModelLoadProgressLabels>;
  /** What to tell a person about a load error. Default: `loadErrorAdvice`. */
  advice?: (error: Error) => string;
  /** Class of the wrapper. */
  className?: string;
}

/** What `useModelLoadProgress` returns. */
export interface ModelLoadProgressAria {
  load: UseModelLoadResult;
  labels: ModelLoadProgressLabels;
  /** For the wrapper: `data-status` (`idle | loading | ready | error`). */
  rootProps: HTMLAttributes<HTMLDivElement> & DataAttributes;
  /** For a `role="progressbar"` element (or spread `value`/`max` onto `<progress>`). */
  progressProps: HTMLAttributes<HTMLDivElement> & DataAttributes;
  /** 0..100, rounded. */
  percent: number;
  /** The state in words, or the engine's own words for the current step. */
  phaseText: string;
  /** `120 MB of 800 MB · about 30 s left`, or `''` when neither is known. */
  detailText: string;
  /** What to do about the error; `''` without one. */
  adviceText: string;
  /** The error's own message; `''` without one. */
  errorText: string;
  /** Loads the model; shown when idle. */
  loadButtonProps: ButtonHTMLAttributes<HTMLButtonElement>;
  /** Loads again after an error. */
  retryButtonProps: ButtonHTMLAttributes<HTMLButtonElement>;
  /**
   * The retry button's words: `labels.download` where the browser starts a
   * download only from a click (the error's `kind` is `'needs-gesture'`: the
   * press is the click it waits for), else `labels.retry`.
   */
  retryText: string;
  /** Whether the load waits for a person's click to download (the error's `kind` is `'needs-gesture'`): an offer, not a failure. */
  needsGesture: boolean;
}

/**
 * The behaviour of a model load indicator: progress as a percentage, the
 * phase in words, bytes and time left when the engine reports enough to know
 * them, and on failure advice chosen by the error's name plus a retry that
 * calls `load()`. Renders only when the load state changes. Needs a
 * `<PoolProvider>`.
 *
 * @example
 * const m = useModelLoadProgress();
 * <div {...m.progressProps} /> <p>{m.phaseText} {m.detailText}</p>
 */
export function useModelLoadProgress(props: ModelLoadProgressProps = {}): ModelLoadProgressAria {
  const load = useModelLoad();
  const labels = { ...DEFAULT_LABELS, ...props.labels };
  const { status, progress, text, error, timeElapsed, loadedBytes, totalBytes } = load;
  const percent = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const details: string[] = [];
  if (status === 'loading') {
    if (loadedBytes !== null) details.push(labels.bytes(formatBytes(loadedBytes), totalBytes ? formatBytes(totalBytes) : null));
    const left = secondsLeft(progress, timeElapsed);
    if (left !== null) details.push(labels.timeLeft(formatDuration(left)));
  }
  const phaseText = status === 'loading' ? text || labels.loading : labels[status];
  const adviceText = error ? (props.advice ?? loadErrorAdvice)(error) : '';
  const errorText = error?.message ?? '';
  const needsGesture = (error as { kind?: unknown } | null)?.kind === 'needs-gesture';
  const retryText = needsGesture ? labels.download : labels.retry;
  const detailText = details.join(' · ');
  return {
    load,
    labels,
    rootProps: {
      'data-status': status,
      'data-needs-gesture': needsGesture ? 'true' : undefined,
      className: props.className ? `inkling-model-load ${props.className}` : 'inkling-model-load',
    },
    progressProps: {
      role: 'progressbar',
      'aria-label': labels.progress,
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': percent,
      'aria-valuetext': [`${percent}%`, detailText].filter(Boolean).join(', '),
      'data-status': status,
      className: 'inkling-model-load-bar',
    },
    percent,
    phaseText,
    detailText,
    adviceText,
    errorText: adviceText === errorText ? '' : errorText,
    loadButtonProps: { type: 'button', onClick: () => void load.load(), disabled: status !== 'idle' },
    retryButtonProps: { type: 'button', onClick: () => void load.load(), disabled: status !== 'error' },
    retryText,
    needsGesture,
  };
}
