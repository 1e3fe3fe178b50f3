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

/**
 * The choice to start with: `?engine=simulated` in the URL wins (links, tests),
 * then the last choice made here, then WebLLM's default model.
 */
export function initialChoice(defaultModel: string): EngineChoice {
  if (new URLSearchParams(location.search).get('engine') === 'simulated') return { kind: 'simulated' };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as EngineChoice | null;
    if (saved && (saved.kind === 'simulated' || typeof saved.model === 'string')) return saved;
  } catch {
    // A damaged entry is forgotten, not fatal.
  }
  return { kind: 'webllm', model: defaultModel };
}

export function saveChoice(choice: EngineChoice): void {
  localStorage.setItem(KEY, JSON.stringify(choice));
}
