import type { BuiltInAIProbe } from '@inkling/browser-ai';
import { PoolInspector, PoolProvider } from '@inkling/react';
import type { WebGPUSupport } from '@inkling/webllm';
import { useEffect, useState } from 'react';
import { deviceDefault, softwareGpu } from './engine/deviceDefault.js';
import { type EngineChoice, choiceId, needsWebGPU, saveChoice } from './engine/engineChoice.js';
import { engineName } from './engine/engineName.js';
import { NO_WEBGPU_OFFERS } from './engine/engineOffers.js';
import { poolFor, switchEngine } from './engine/pool.js';
import { type TranslationTarget, reconnect } from './engine/remotePools.js';
import { builtInChoice, useBuiltInAI } from './engine/useBuiltInAI.js';
import { useWebGPU } from './engine/useWebGPU.js';
import { Assistant } from './features/assistant/Assistant.js';
import { BuiltInAIOffer } from './features/model/BuiltInAIOffer.js';
import { EngineBar } from './features/model/EngineBar.js';
import { ModelPicker } from './features/model/ModelPicker.js';
import { SelfHostedForm } from './features/model/SelfHostedForm.js';
import { StoredModels } from './features/model/StoredModels.js';
import { WebGPUNotice } from './features/model/WebGPUNotice.js';
import { NotesEditor } from './features/notes/NotesEditor.js';
import { ServerInspector } from './features/translate/ServerInspector.js';
import { TranslatePage } from './features/translate/TranslatePage.js';

interface AppProps {
  /** What `detectWebGPU` found before the first paint; `null` when it took too long (the app finishes it). */
  detected: WebGPUSupport | null;
  /** What `detectBuiltInAI` found before the first paint; `null` when it took too long (the app finishes it). */
  builtIn: BuiltInAIProbe | null;
  /** The engine to start with, and whether a person chose it (then a real model loads by itself). */
  start: { choice: EngineChoice; chosen: boolean };
}

/** The notes app: model picker, editor, page translation and the pool inspector. */
export function App({ detected, builtIn, start }: AppProps) {
  const [choice, setChoice] = useState<EngineChoice>(start.choice);
  // A real model downloads only once a person asked for it (here or on an earlier visit).
  const [asked, setAsked] = useState(start.chosen);
  const [target, setTarget] = useState<TranslationTarget>({ kind: 'device' });
  const [editingSelfHosted, setEditingSelfHosted] = useState(false);
  const gpu = useWebGPU(detected);
  const probe = useBuiltInAI(builtIn);
  const runnable = !needsWebGPU(choice) || gpu?.supported === true;
  const load = runnable && (asked || choice.kind === 'simulated');
  const noGpu = needsWebGPU(choice) && gpu !== null && !gpu.supported;
  const software = softwareGpu(gpu);
  // A software adapter found after the first paint still moves a default nobody chose to the CPU model.
  useEffect(() => {
    if (asked || !software || choice.kind !== 'webllm') return;
    const next = deviceDefault(gpu);
    void switchEngine(next).then(() => setChoice(next));
  }, [asked, software, choice, gpu]);
  const offers = NO_WEBGPU_OFFERS.filter((offer) => choiceId(offer.choice) !== choiceId(choice));

  // After a choice the focus goes to the editor: typing is what a person came for.
  const [chosen, setChosen] = useState(0);
  useEffect(() => {
    if (chosen > 0) document.getElementById('note-body')?.focus();
  }, [chosen]);
  const choose = async (next: EngineChoice) => {
    await switchEngine(next);
    saveChoice(next);
    setChoice(next);
    setAsked(true);
    setChosen((n) => n + 1);
  };
  const loadModel = () => {
    saveChoice(choice);
    setAsked(true);
  };
  const chooseTarget = (next: TranslationTarget) => {
    reconnect(next);
    setTarget(next);
  };

  return (
    <PoolProvider key={choiceId(choice)} pool={poolFor(choice)} modelId={choiceId(choice)} load={load}>
      <div className="app" data-engine={choice.kind}>
        <EngineBar name={runnable ? engineName(choice) : 'nothing yet'} simulated={choice.kind === 'simulated'} loading={load}>
          <ModelPicker
            choice={choice}
            gpu={gpu}
            runnable={runnable}
            loading={load}
            builtIn={probe}
            onChoose={choose}
            onLoad={loadModel}
            editingSelfHosted={editingSelfHosted}
            onEditSelfHosted={setEditingSelfHosted}
          />
          {editingSelfHosted ? (
            <SelfHostedForm
              initial={choice.kind === 'self-hosted' ? choice : undefined}
              onCancel={() => setEditingSelfHosted(false)}
              onSwitch={(hosted) => {
                setEditingSelfHosted(false);
                void choose({ kind: 'self-hosted', ...hosted });
              }}
            />
          ) : null}
          {/* Chrome's built-in model is one of the choices: offered here, with what it does on this device, first. */}
          {probe && choice.kind !== 'built-in' ? <BuiltInAIOffer probe={probe} onUse={() => void choose(builtInChoice(probe))} /> : null}
          {/* Kept while a CPU model is the choice: if its download fails, the simulated engine is still offered. */}
          {(noGpu || software || (gpu?.supported === false && choice.kind === 'cpu')) && gpu ? (
            <WebGPUNotice gpu={gpu} offers={offers} onChoose={(next) => void choose(next)} />
          ) : null}
        </EngineBar>
        <main className="app-main">
          <NotesEditor
            engineNote={
              choice.kind === 'built-in' && !choice.prompt
                ? "No suggestions: on this device Chrome's built-in model only translates. Choose another engine above for suggestions."
                : load
                  ? null
                  : runnable
                    ? 'No suggestions yet: load the model above.'
                    : 'No suggestions yet: no engine runs here until you choose one above.'
            }
          />
          <TranslatePage deviceReady={load} target={target} onTarget={chooseTarget} />
          <Assistant enabled={load && !(choice.kind === 'built-in' && !choice.prompt)} />
        </main>
        <aside className="app-inspector" aria-label="Inspectors">
          <PoolInspector title="Engine pool (this device)" />
          <StoredModels />
          {target.kind === 'device' ? null : <ServerInspector target={target} />}
        </aside>
      </div>
    </PoolProvider>
  );
}
