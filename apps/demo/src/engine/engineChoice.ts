/** Which engine the demo runs: a WebLLM model, a self-hosted one, or the simulated engine. */
export type EngineChoice =
  | { kind: 'webllm'; model: string }
  | { kind: 'self-hosted'; model: string; modelUrl: string; libUrl: string }
  | { kind: 'simulated' };

const KEY = 'inkling-demo:engine';

/** A stable name for a choice: the cache key of its results and the key of its provider. */
export function choiceId(choice: EngineChoice): string {
  return choice.kind === 'simulated' ? 'simulated' : choice.model;
}

/** Whether a choice runs on the GPU through WebGPU. */
export function needsWebGPU(choice: EngineChoice): boolean {
  return choice.kind === 'webllm' || choice.kind === 'self-hosted';
}

/**
 * The choice to start with, and whether a person made it (only then does a
 * real model load by itself): `?engine=simulated` in the URL wins (links,
 * tests), then the last choice made here, then WebLLM's default model, which
 * waits for "Load model".
 */
export function initialChoice(defaultModel: string): { choice: EngineChoice; chosen: boolean } {
  if (new URLSearchParams(location.search).get('engine') === 'simulated') return { choice: { kind: 'simulated' }, chosen: true };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as EngineChoice | null;
    if (saved && (saved.kind === 'simulated' || typeof saved.model === 'string')) return { choice: saved, chosen: true };
  } catch {
    // A damaged entry is forgotten, not fatal.
  }
  return { choice: { kind: 'webllm', model: defaultModel }, chosen: false };
}

/** Remembers a choice a person made, so the next visit starts with it. */
export function saveChoice(choice: EngineChoice): void {
  localStorage.setItem(KEY, JSON.stringify(choice));
}
