/**
 * Which engine the demo runs: a WebLLM model, a self-hosted one, a GGUF model
 * on the CPU (wllama; `model` names it, `url` is its file), Chrome's built-in
 * model (`prompt` and `translation`: which of its APIs can run here, as
 * `detectBuiltInAI` said when it was chosen), or the simulated engine.
 */
export type EngineChoice =
  | { kind: 'webllm'; model: string }
  | { kind: 'built-in'; prompt: boolean; translation: boolean }
  | { kind: 'cpu'; model: string; url: string }
  | { kind: 'self-hosted'; model: string; modelUrl: string; libUrl: string }
  | { kind: 'simulated' };

const KEY = 'inkling-demo:engine';

/** A stable name for a choice: the cache key of its results and the key of its provider. */
export function choiceId(choice: EngineChoice): string {
  if (choice.kind === 'simulated' || choice.kind === 'built-in') return choice.kind;
  return choice.kind === 'cpu' ? `cpu:${choice.model}` : choice.model;
}

/** Whether a choice runs on the GPU through WebGPU. */
export function needsWebGPU(choice: EngineChoice): boolean {
  return choice.kind === 'webllm' || choice.kind === 'self-hosted';
}

/**
 * The choice to start with, and whether a person made it (only then does a
 * real model load by itself): `?engine=simulated` in the URL wins (links,
 * tests), then the last choice made here, then `fallback` (the device's
 * default model, chosen by `deviceDefault`), which waits for "Load model".
 * Chrome's built-in model, chosen on an earlier visit, waits for "Load model"
 * too: Chrome downloads its models only on a person's click.
 */
export function initialChoice(fallback: EngineChoice): { choice: EngineChoice; chosen: boolean } {
  if (new URLSearchParams(location.search).get('engine') === 'simulated') return { choice: { kind: 'simulated' }, chosen: true };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as EngineChoice | null;
    if (saved && isWhole(saved)) return { choice: saved, chosen: saved.kind !== 'built-in' };
  } catch {
    // A damaged entry is forgotten, not fatal.
  }
  return { choice: fallback, chosen: false };
}

/** Whether a saved choice has every field its kind needs (an old or damaged entry may not). */
function isWhole(saved: EngineChoice): boolean {
  if (saved.kind === 'simulated') return true;
  if (saved.kind === 'built-in') return typeof saved.prompt === 'boolean' && typeof saved.translation === 'boolean';
  if (typeof saved.model !== 'string') return false;
  if (saved.kind === 'cpu') return typeof saved.url === 'string' && URL.canParse(saved.url);
  if (saved.kind === 'self-hosted') return typeof saved.modelUrl === 'string' && typeof saved.libUrl === 'string';
  return saved.kind === 'webllm';
}

/** Remembers a choice a person made, so the next visit starts with it. */
export function saveChoice(choice: EngineChoice): void {
  localStorage.setItem(KEY, JSON.stringify(choice));
}
