import { type WebGPUSupport, modelCatalogue } from '@inkling/webllm';
import { useId, useState } from 'react';
import type { EngineChoice } from '../../engine/engineChoice.js';
import { EngineStatus } from './EngineStatus.js';
import { SelfHostedForm } from './SelfHostedForm.js';

const SIMULATED = 'simulated';
const SELF_HOSTED = 'self-hosted';

interface ModelPickerProps {
  choice: EngineChoice;
  gpu: WebGPUSupport | null;
  /** Whether the chosen engine can run in this browser. */
  runnable: boolean;
  /** Whether the pool was asked to load. */
  loading: boolean;
  onChoose: (choice: EngineChoice) => void | Promise<void>;
  onLoad: () => void;
}

function optionLabel(model: (typeof modelCatalogue)[number], gpu: WebGPUSupport | null): string {
  const name = `${model.id.replace(/-MLC$/, '')} · ${Math.round(model.vramRequiredMB)} MB`;
  // Only where WebGPU works does a missing feature explain anything.
  return gpu?.supported && model.shaderF16 && !gpu.shaderF16 ? `${name} (needs shader-f16)` : name;
}

/** Picks the model (a WebLLM one, a self-hosted one, or the simulated engine) and shows its state. */
export function ModelPicker({ choice, gpu, runnable, loading, onChoose, onLoad }: ModelPickerProps) {
  const id = useId();
  const [editingSelfHosted, setEditingSelfHosted] = useState(false);
  const noGpu = gpu !== null && !gpu.supported;
  const current = choice.kind === 'self-hosted' ? SELF_HOSTED : choice.kind === 'simulated' ? SIMULATED : choice.model;
  const value = editingSelfHosted ? SELF_HOSTED : current;
  const choose = (next: string) => {
    setEditingSelfHosted(next === SELF_HOSTED);
    if (next === SELF_HOSTED) return;
    void onChoose(next === SIMULATED ? { kind: 'simulated' } : { kind: 'webllm', model: next });
  };
  return (
    <div className="model-picker">
      <div className="model-row">
        <label htmlFor={id}>Model</label>
        <select id={id} value={value} onChange={(event) => choose(event.target.value)}>
          <optgroup label={noGpu ? 'On this device (WebLLM): needs WebGPU' : 'On this device (WebLLM)'}>
            {modelCatalogue
              .filter((m) => m.kind === 'llm')
              .map((m) => (
                <option key={m.id} value={m.id} disabled={noGpu || (m.shaderF16 && gpu !== null && !gpu.shaderF16)}>
                  {optionLabel(m, gpu)}
                </option>
              ))}
          </optgroup>
          <option value={SELF_HOSTED} disabled={noGpu}>
            Self-hosted model…
          </option>
          <option value={SIMULATED}>Simulated engine (no model)</option>
        </select>
        {choice.kind === 'simulated' ? (
          <span className="badge simulated" title="No model is running: a fake engine makes up plausible text.">
            Simulated
          </span>
        ) : null}
      </div>
      <EngineStatus runnable={runnable} loading={loading} onLoad={onLoad} />
      {value === SELF_HOSTED && editingSelfHosted ? (
        <SelfHostedForm
          initial={choice.kind === 'self-hosted' ? choice : undefined}
          onCancel={() => setEditingSelfHosted(false)}
          onSwitch={(hosted) => {
            setEditingSelfHosted(false);
            void onChoose({ kind: 'self-hosted', ...hosted });
          }}
        />
      ) : null}
    </div>
  );
}
