import { EnginePool } from '@inkling/react';
import { openaiEngines } from '@inkling/openai';
import { simulatedServer } from '@inkling/openai/testing';
import { simulatedReply } from '@inkling/react/testing';

/** Where the page translation runs: this device's pool, or a server. */
export type TranslationTarget =
  | { kind: 'device' }
  | { kind: 'server'; baseURL: string; model: string; apiKey?: string }
  | { kind: 'simulated-server' };

const pools = new Map<string, EnginePool>();

/**
 * The pool for a server target: one engine with eight lanes (a server runs
 * requests side by side), built once per server and model. The key is kept
 * in memory only.
 */
export function remotePool(target: Exclude<TranslationTarget, { kind: 'device' }>): EnginePool {
  const id = target.kind === 'server' ? `${target.baseURL}|${target.model}|${target.apiKey ?? ''}` : 'simulated-server';
  let pool = pools.get(id);
  if (!pool) {
    const createEngine =
      target.kind === 'server'
        ? openaiEngines({ baseURL: target.baseURL, model: target.model, apiKey: target.apiKey || undefined, concurrency: 8 })
        : openaiEngines({
            baseURL: 'https://simulated.invalid/v1',
            model: 'simulated-server',
            concurrency: 8,
            fetch: simulatedServer({ reply: (request) => simulatedReply({ ...request, stream: true }) }),
          });
    pool = new EnginePool({ createEngine, size: 1 });
    pools.set(id, pool);
  }
  return pool;
}

/** A server target in words, for status lines and the inspector's title. */
export function targetName(target: Exclude<TranslationTarget, { kind: 'device' }>): string {
  return target.kind === 'server' ? target.baseURL : 'the simulated server';
}

/** After a failed connection, choosing the same server again tries again. */
export function reconnect(target: TranslationTarget): void {
  if (target.kind === 'device') return;
  const pool = remotePool(target);
  if (pool.getSnapshot().phase === 'error') void pool.load().catch(() => {});
}
