import { PoolInspector, PoolProvider } from '@inkling/react';
import { defaultModel } from '@inkling/webllm';
import { useState } from 'react';
import { type EngineChoice, choiceId, initialChoice, saveChoice } from './engine/engineChoice.js';
import { pool, selectEngines, switchEngine } from './engine/pool.js';
import { useWebGPU } from './engine/useWebGPU.js';
import { ModelPicker } from './features/model/ModelPicker.js';
import { WebGPUNotice } from './features/model/WebGPUNotice.js';
import { NotesEditor } from './features/notes/NotesEditor.js';
import { TranslatePage } from './features/translate/TranslatePage.js';

const first = initialChoice(defaultModel('ghostText'));
selectEngines(first);

export function App() {
  const [choice, setChoice] = useState<EngineChoice>(first);
  const gpu = useWebGPU();
  const needsGpu = choice.kind !== 'simulated';
  const blocked = needsGpu && gpu !== null && !gpu.supported;
  // A real model loads once WebGPU is known to be there; the simulated one at once.
  const load = !needsGpu || gpu?.supported === true;

  const choose = async (next: EngineChoice) => {
    await switchEngine(next);
    saveChoice(next);
    setChoice(next);
  };

  return (
    <PoolProvider key={`${choiceId(choice)}:${load}`} pool={pool} modelId={choiceId(choice)} load={load}>
      <div className="app" data-engine={choice.kind}>
        <header className="app-header">
          <h1>
            Inkling <span className="app-subtitle">notes</span>
          </h1>
          <ModelPicker choice={choice} gpu={gpu} onChoose={choose} />
        </header>
        {blocked && gpu ? <WebGPUNotice reason={gpu.reason} onSimulate={() => void choose({ kind: 'simulated' })} /> : null}
        <main className="app-main">
          <NotesEditor />
          <TranslatePage />
        </main>
        <aside className="app-inspector" aria-label="Engine pool inspector">
          <PoolInspector />
        </aside>
      </div>
    </PoolProvider>
  );
}
