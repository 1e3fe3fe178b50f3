import { expect, waitFor } from 'storybook/test';

/** Long enough for a simulated load, the debounce, prefill and a few tokens. */
export const PATIENCE = { timeout: 8000 };

/** The wrapper of a GhostTextarea's textarea (it carries `data-state`). */
export function ghostRoot(textarea: HTMLElement): HTMLElement {
  return textarea.parentElement as HTMLElement;
}

/** The ghost span of a GhostTextarea, or null. */
export function ghostOf(textarea: HTMLElement): HTMLElement | null {
  return ghostRoot(textarea).querySelector('[data-inkling-ghost]');
}

/** Waits for a whole suggestion (state `ready`) and returns its text. */
export async function readySuggestion(textarea: HTMLElement): Promise<string> {
  await waitFor(() => expect(ghostRoot(textarea).dataset.state).toBe('done'), PATIENCE);
  return ghostOf(textarea)?.textContent ?? '';
}

/** Waits until the pool's first engine is loaded. */
export async function modelReady(canvasElement: HTMLElement): Promise<void> {
  await waitFor(() => expect(canvasElement.querySelector('[data-pool-ready="true"]')).not.toBeNull(), PATIENCE);
}
