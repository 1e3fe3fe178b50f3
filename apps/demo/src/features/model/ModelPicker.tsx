import { ModelLoadProgress } from '@inkling/react';
import { type WebGPUSupport, modelCatalogue } from '@inkling/webllm';
import { useId, useState } from 'react';
import type { EngineChoice } from '../../engine/engineChoice.js';
import { SelfHostedForm } from './SelfHostedForm.js';

const SIMULATED = 'simulated';
const SELF_HOSTED = 'self-hosted';

interface ModelPickerProps {
  choice: EngineChoice;
  gpu: WebGPUSupport | null;
  onChoose: (choice: EngineChoice) => void | Promise<void>;
}

/** Picks the model (a WebLLM one, a self-hosted one, or the simulated engine) and shows its download. */
export function ModelPicker({ choice, gpu, onChoose }: ModelPickerProps) {
  const id = useId();
  const [editingSelfHosted, setEditingSelfHosted] = useState(false);
  const value = editingSelfHosted || choice.kind === 'self-hosted' ? SELF_HOSTED : choice.kind === 'simulated' ? SIMULATED : choice.model;
  const choose = (next: string) => {
    setEditingSelfHosted(next === SELF_HOSTED);
    if (next === SELF_HOSTED) return;
    void onChoose(next === SIMULATED ? { kind: 'simulated' } : { kind: 'webllm', model: next });
  };
  return (
    <div className="model-picker">
      <div className="model-row">
        <label htmlFor={id} className="field">
          <span>Model</span>
        </label>
        <select id={id} value={value} onChange={(event) => choose(event.target.value)}>
          <optgroup label="On this device (WebLLM)">
            {modelCatalogue
              .filter((m) => m.kind === 'llm')
              .map((m) => (
                <option key={m.id} value={m.id} disabled={m.shaderF16 && gpu !== null && !gpu.shaderF16}>
                  {m.id.replace(/-MLC$/, '')} · {Math.round(m.vramRequiredMB)} MB{m.shaderF16 && gpu !== null && !gpu.shaderF16 ? ' (needs shader-f16)' : ''}
                </option>
              ))}
          </optgroup>
          <option value={SELF_HOSTED}>Self-hosted model…</option>
          <option value={SIMULATED}>Simulated engine (no model)</option>
        </select>
        {choice.kind === 'simulated' ? (
          <span className="badge simulated" title="No model is running: a fake engine makes up plausible text.">
            Simulated
          </span>
        ) : null}
      </div>
      {value === SELF_HOSTED ? (
        <SelfHostedForm
          initial={choice.kind === 'self-hosted' ? choice : undefined}
          onLoad={(hosted) => {
            setEditingSelfHosted(false);
            void onChoose({ kind: 'self-hosted', ...hosted });
          }}
        />
      ) : null}
      <ModelLoadProgress className="model-progress" />
    </div>
  );
}
