// The smallest real app: ghost text on a real WebLLM model, default worker.
import { EnginePool, GhostTextarea, PoolProvider } from '@inkling/react';
import { defaultModel, webllmEngines } from '@inkling/webllm';
import { createRoot } from 'react-dom/client';

const pool = new EnginePool({ createEngine: webllmEngines({ model: defaultModel('ghostText') }), size: 1 });

createRoot(document.getElementById('root') as HTMLElement).render(
  <PoolProvider pool={pool}>
    <GhostTextarea session="note" aria-label="Note" rows={6} />
  </PoolProvider>,
);
