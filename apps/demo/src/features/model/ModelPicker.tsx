import type { BuiltInAIProbe } from '@inkling/browser-ai';
import { type WebGPUSupport, modelCatalogue } from '@inkling/webllm';
import { chooseEngineKind } from '@inkling/wllama';
import { useId } from 'react';
import { CPU_MODELS } from '../../engine/cpuModels.js';
import type { EngineChoice } from '../../engine/engineChoice.js';
import { modelName } from '../../engine/engineName.js';
import { builtInChoice, builtInUsable } from '../../engine/useBuiltInAI.js';
import { EngineStatus } from './EngineStatus.js';
import { useCpuDownloads } from './useCpuDownloads.js';

const SIMULATED = 'simulated';
const SELF_HOSTED = 'self-hosted';
const BUILT_IN = 'built-in';
const CPU = 'cpu:';
const NONE = '';

interface ModelPickerProps {
  choice: EngineChoice;
  gpu: WebGPUSupport | null;
  /** Whether the chosen engine can run in this browser. */
  runnable: boolean;
  /** Whether the pool was asked to load. */
  loading: boolean;
  /** What Chrome's built-in AI can do here (`null` while unknown): offered first where it can run. */
  builtIn: BuiltInAIProbe | null;
  onChoose: (choice: EngineChoice) => void | Promise<void>;
  onLoad: () => void;
  /** Whether the self-hosted form is open (the app shows it under the header). */
  editingSelfHosted: boolean;
  onEditSelfHosted: (editing: boolean) => void;
}

function optionLabel(model: (typeof modelCatalogue)[number], gpu: WebGPUSupport | null): string {
  // Two builds of one model differ in their arithmetic's width: said in words, not as a quantisation id.
  const width = /q\d+f16/i.test(model.id) ? '16-bit' : '32-bit';
  const name = `${modelName(model.id)} (${width}) · ${Math.round(model.vramRequiredMB)} MB`;
  // Only where WebGPU works does a missing feature explain anything.
  return gpu?.supported && model.shaderF16 && !gpu.shaderF16 ? `${name} (needs shader-f16)` : name;
}

/** The CPU models (llama.cpp in WebAssembly), which run in every browser with WebAssembly: each says whether it is downloaded. */
function CpuOptions({ note }: { note: (url: string, sizeMB: number | null) => string }) {
  return (
    <optgroup label="On this device (CPU, llama.cpp)">
      {CPU_MODELS.map((m) => (
        <option key={m.choice.model} value={CPU + m.choice.model}>
          {`${modelName(m.choice.model)} · ${note(m.choice.url, m.sizeMB)}`}
        </option>
      ))}
    </optgroup>
  );
}

/** What the built-in option says it does here: both features, or the one that runs. */
function builtInLabel(probe: BuiltInAIProbe): string {
  if (probe.prompt.usable && probe.translation.usable) return "Chrome's built-in model";
  return `Chrome's built-in model (${probe.prompt.usable ? 'suggestions' : 'translation'} only)`;
}

function choiceFor(value: string, builtIn: BuiltInAIProbe | null, choice: EngineChoice): EngineChoice {
  if (value === SIMULATED) return { kind: 'simulated' };
  if (value === BUILT_IN) return builtIn ? builtInChoice(builtIn) : choice;
  const cpu = value.startsWith(CPU) ? CPU_MODELS.find((m) => CPU + m.choice.model === value) : undefined;
  return cpu ? cpu.choice : { kind: 'webllm', model: value };
}

/**
 * Picks the model (Chrome's built-in one, a WebLLM one, a self-hosted one, a
 * CPU one, or the simulated engine) and shows its state. Chrome's built-in
 * model comes first where `detectBuiltInAI` says it can run; where WebGPU
 * is missing or only software, the CPU models come next.
 */
export function ModelPicker({
  choice,
  gpu,
  runnable,
  loading,
  builtIn,
  onChoose,
  onLoad,
  editingSelfHosted,
  onEditSelfHosted,
}: ModelPickerProps) {
  const id = useId();
  const downloads = useCpuDownloads();
  const noGpu = gpu !== null && !gpu.supported;
  const cpuFirst = gpu !== null && chooseEngineKind(gpu).kind === 'cpu';
  const current =
    choice.kind === 'self-hosted'
      ? SELF_HOSTED
      : choice.kind === 'simulated' || choice.kind === 'built-in'
        ? choice.kind
        : choice.kind === 'cpu'
          ? CPU + choice.model
          : choice.model;
  // Without WebGPU a WebLLM model is not shown as the choice: it cannot run here.
  const unrunnable = noGpu && (choice.kind === 'webllm' || choice.kind === 'self-hosted');
  const value = editingSelfHosted ? SELF_HOSTED : unrunnable ? NONE : current;
  const choose = (next: string) => {
    onEditSelfHosted(next === SELF_HOSTED);
    if (next === SELF_HOSTED) return;
    void onChoose(choiceFor(next, builtIn, choice));
  };
  return (
    <div className="model-picker">
      <div className="model-row">
        <label htmlFor={id}>Model</label>
        <select id={id} value={value} onChange={(event) => choose(event.target.value)}>
          {unrunnable ? (
            <option value={NONE} disabled>
              Choose an engine that runs here
            </option>
          ) : null}
          {builtInUsable(builtIn) || choice.kind === 'built-in' ? (
            // First: no download by the page, and a model made for the browser it runs in.
            <optgroup label="In this browser (Chrome's built-in AI)">
              <option value={BUILT_IN}>{builtIn ? builtInLabel(builtIn) : "Chrome's built-in model"}</option>
            </optgroup>
          ) : null}
          {cpuFirst ? <CpuOptions note={downloads.note} /> : null}
          <optgroup
            label={
              noGpu
                ? 'On this device (WebLLM): needs WebGPU'
                : cpuFirst
                  ? 'On this device (WebLLM): slow on a software GPU'
                  : 'On this device (WebLLM)'
            }
          >
            {modelCatalogue
              .filter((m) => m.kind === 'llm')
              .map((m) => (
                <option key={m.id} value={m.id} disabled={noGpu || (m.shaderF16 && gpu !== null && !gpu.shaderF16)}>
                  {optionLabel(m, gpu)}
                </option>
              ))}
          </optgroup>
          {cpuFirst ? null : <CpuOptions note={downloads.note} />}
          <option value={SELF_HOSTED} disabled={noGpu}>
            Self-hosted model…
          </option>
          <option value={SIMULATED}>Simulated engine (no model)</option>
        </select>
      </div>
      {/* Always there, so the figure arriving a moment later moves nothing. */}
      <span className="model-free">{downloads.freeText ?? '\u00a0'}</span>
      <EngineStatus runnable={runnable} loading={loading} onLoad={onLoad} editing={editingSelfHosted} />
    </div>
  );
}
