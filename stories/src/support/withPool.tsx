import { type EnginePool, ModelLoadProgress, PoolProvider } from '@inkling/react';
import { detectWebGPU } from '@inkling/webllm';
import { Subscribable } from '@inkling/scheduler';
import type { Decorator } from '@storybook/react-vite';
import { type ReactNode, StrictMode, useEffect, useState } from 'react';
import { DEFAULT_MODEL, type EngineKind, type StoryPoolSettings, createStoryPool } from './engineChoice.js';

/** Story args the decorator reads, so controls can change the pool (the playground's). */
interface PoolArgs {
  engines?: number;
  tokenMs?: number;
  prefillMs?: number;
  loadMs?: number;
}

function settingsOf(parameters: { inkling?: StoryPoolSettings }, args: PoolArgs): StoryPoolSettings {
  const base = parameters.inkling ?? {};
  const engine = { ...base.engine };
  if (typeof args.tokenMs === 'number') engine.tokenMs = args.tokenMs;
  if (typeof args.prefillMs === 'number') engine.prefillMs = args.prefillMs;
  if (typeof args.loadMs === 'number') engine.loadMs = args.loadMs;
  return { ...base, size: typeof args.engines === 'number' ? args.engines : base.size, engine };
}

/** Why WebGPU cannot run here (`detectWebGPU`'s reason), once known; `null` where it can or while unknown. */
function useNoWebGPU(asked: boolean): string | null {
  const [reason, setReason] = useState<string | null>(null);
  useEffect(() => {
    if (!asked) return;
    let live = true;
    void detectWebGPU().then((found) => {
      if (live && !found.supported) setReason(found.reason ?? 'this browser has no WebGPU.');
    });
    return () => {
      live = false;
    };
  }, [asked]);
  return reason;
}

/**
 * A note above every story saying which engine runs it; for a real engine,
 * its load under it (progress, or the failure and what to do), and where
 * WebGPU is missing, why Real WebLLM cannot run here and what to pick instead.
 */
function EngineBadge({ kind, model }: { kind: EngineKind; model: string }) {
  const noGpu = useNoWebGPU(kind === 'webllm');
  return (
    <div className="story-engine" data-engine={kind}>
      <p className="story-engine-badge" data-engine={kind}>
        {kind === 'webllm' ? (
          <>
            <strong>Real WebLLM</strong> · {model}, on this device's GPU
          </>
        ) : kind === 'built-in' ? (
          <>
            <strong>Chrome&apos;s built-in model</strong> · the browser&apos;s own, where it is ready here
          </>
        ) : (
          <>
            <strong>Simulated engine</strong> · no model, no GPU, deterministic replies
          </>
        )}
      </p>
      {noGpu ? (
        <p className="story-engine-problem" role="note" title={noGpu}>
          Real WebLLM cannot run in this browser (no WebGPU; the load below says why). Pick &ldquo;Simulated engine&rdquo; in the
          toolbar&apos;s Engine menu, or open Storybook in Chrome or Edge 113+ on a desktop with a GPU.
        </p>
      ) : null}
      {kind === 'simulated' ? null : <ModelLoadProgress className="story-engine-load" />}
    </div>
  );
}

/**
 * A story's pool, held by its mounted hosts: when the last one leaves, the
 * pool is unloaded shortly after unless one mounts again (StrictMode's
 * remount), whoever loaded it (a story's button, or the provider). The
 * provider's own lease unloads only what it loaded, so it cannot do this.
 */
class StoryPool extends Subscribable {
  readonly pool: EnginePool;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(pool: EnginePool) {
    super();
    this.pool = pool;
  }

  protected override onSubscribe(): void {
    clearTimeout(this.#timer);
  }

  protected override onUnsubscribe(): void {
    this.#timer = setTimeout(() => void this.pool.unload(), 100);
  }
}

/** Owns one story's pool: built once per mount, unloaded shortly after the last unmount. */
function PoolHost({
  settings,
  kind,
  model,
  children,
}: {
  settings: StoryPoolSettings;
  kind: EngineKind;
  model: string;
  children: ReactNode;
}) {
  const [held] = useState(() => new StoryPool(createStoryPool(settings, kind, model)));
  const { pool } = held;
  // A fresh listener per mount: each mount is one holder.
  useEffect(() => held.subscribe(() => {}), [held]);
  return (
    <PoolProvider pool={pool} load={settings.load !== false} unloadDelayMs={100}>
      <EngineBadge kind={kind} model={model} />
      {children}
    </PoolProvider>
  );
}

/**
 * Puts every story in StrictMode under a `PoolProvider` with a fresh pool
 * (from `parameters.inkling`, and the args `engines`, `tokenMs`,
 * `prefillMs`, `loadMs` when a story has them), rebuilt when those change.
 *
 * @example
 * export default { decorators: [withPool] } satisfies Preview;
 */
export const withPool: Decorator = (Story, context) => {
  const settings = settingsOf(context.parameters as { inkling?: StoryPoolSettings }, context.args as PoolArgs);
  const kind = (context.globals.engine as EngineKind | undefined) ?? 'simulated';
  const model = (context.globals.model as string | undefined) ?? DEFAULT_MODEL;
  const { reply, failLoad, ...plain } = settings.engine ?? {};
  const key = JSON.stringify([context.id, kind, model, settings.size, settings.load, plain, !!reply, !!failLoad]);
  return (
    <StrictMode>
      <PoolHost key={key} settings={settings} kind={kind} model={model}>
        <Story />
      </PoolHost>
    </StrictMode>
  );
};
