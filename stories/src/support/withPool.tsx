import { type EnginePool, PoolProvider } from '@inkling/react';
import type { Decorator } from '@storybook/react-vite';
import { type ReactNode, StrictMode, useEffect, useRef, useState } from 'react';
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

/** A note above every story saying which engine runs it. */
function EngineBadge({ kind, model }: { kind: EngineKind; model: string }) {
  return (
    <p className="story-engine-badge" data-engine={kind}>
      {kind === 'webllm' ? (
        <>
          <strong>Real WebLLM</strong> · {model}, on this device's GPU
        </>
      ) : (
        <>
          <strong>Simulated engine</strong> · no model, no GPU, deterministic replies
        </>
      )}
    </p>
  );
}

/** Owns one story's pool: built once per mount, unloaded shortly after the last unmount. */
function PoolHost({ settings, kind, model, children }: { settings: StoryPoolSettings; kind: EngineKind; model: string; children: ReactNode }) {
  const [pool] = useState<EnginePool>(() => createStoryPool(settings, kind, model));
  const mounts = useRef(0);
  useEffect(() => {
    mounts.current += 1;
    return () => {
      mounts.current -= 1;
      // StrictMode remounts at once: unload only if nothing mounted again.
      setTimeout(() => {
        if (mounts.current === 0) void pool.unload();
      }, 100);
    };
  }, [pool]);
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
