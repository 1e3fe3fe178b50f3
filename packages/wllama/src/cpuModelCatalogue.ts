/** A feature of the kit, for picking a default CPU model. */
export type CpuModelFeature = 'ghostText' | 'translation' | 'chat' | 'embeddings';

/** One small GGUF model that runs on a CPU through wllama. */
export interface CpuCatalogueModel {
  /** A short id. */
  readonly id: string;
  /** The public URL of its `.gguf` file (give it to `wllamaEngines({ model })`). */
  readonly url: string;
  /** Download size in megabytes (10^6 bytes), as the host lists it. Each engine holds about this much memory, plus its context. */
  readonly sizeMB: number;
  /** Parameters, for display. */
  readonly parameters: string;
  /** Chat (`'llm'`) or vectors (`'embedding'`, load with `embeddings: true`). */
  readonly kind: 'llm' | 'embedding';
  /** Trained on many languages (translation wants it). */
  readonly multilingual: boolean;
  /** The weights' licence, as the model card names it. */
  readonly license: string;
}

const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

/**
 * A few small instruct models (and one embedding model) in GGUF that wllama
 * runs on a CPU where WebGPU is missing, smallest download first. Nothing here
 * is fetched until an engine loads it; the host must allow this page's origin
 * (Hugging Face does), or serve the file yourself.
 *
 * @example
 * const small = cpuModelCatalogue.filter((m) => m.kind === 'llm' && m.sizeMB < 500);
 */
export const cpuModelCatalogue: readonly CpuCatalogueModel[] = [
  {
    id: 'bge-small-en-v1.5-q8_0',
    url: hf('ggml-org/bge-small-en-v1.5-Q8_0-GGUF', 'bge-small-en-v1.5-q8_0.gguf'),
    sizeMB: 36.7,
    parameters: '33M',
    kind: 'embedding',
    multilingual: false,
    license: 'MIT',
  },
  {
    id: 'SmolLM2-360M-Instruct-q8_0',
    url: hf('HuggingFaceTB/SmolLM2-360M-Instruct-GGUF', 'smollm2-360m-instruct-q8_0.gguf'),
    sizeMB: 386,
    parameters: '360M',
    kind: 'llm',
    multilingual: false,
    license: 'Apache-2.0',
  },
  {
    id: 'Qwen2.5-0.5B-Instruct-Q4_K_M',
    url: hf('lmstudio-community/Qwen2.5-0.5B-Instruct-GGUF', 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf'),
    sizeMB: 398,
    parameters: '0.5B',
    kind: 'llm',
    multilingual: true,
    license: 'Apache-2.0',
  },
  {
    id: 'Llama-3.2-1B-Instruct-Q4_K_M',
    url: hf('bartowski/Llama-3.2-1B-Instruct-GGUF', 'Llama-3.2-1B-Instruct-Q4_K_M.gguf'),
    sizeMB: 808,
    parameters: '1B',
    kind: 'llm',
    multilingual: true,
    license: 'Llama 3.2 Community License',
  },
];

const DEFAULTS: Record<CpuModelFeature, string> = {
  // The smallest download that writes English well and decodes fastest on a CPU (a 49k vocabulary).
  ghostText: 'SmolLM2-360M-Instruct-q8_0',
  // Qwen2.5 is trained on some 29 languages; SmolLM2 on English.
  translation: 'Qwen2.5-0.5B-Instruct-Q4_K_M',
  chat: 'Qwen2.5-0.5B-Instruct-Q4_K_M',
  embeddings: 'bge-small-en-v1.5-q8_0',
};

/**
 * The catalogue's CPU model for a feature. Default feature `'chat'`
 * (Qwen2.5-0.5B-Instruct, 398 MB: every feature, many languages).
 *
 * @example
 * const pool = new EnginePool({ createEngine: wllamaEngines({ model: defaultCpuModel('ghostText').url, wasmUrl }), size: 1 });
 */
export function defaultCpuModel(feature: CpuModelFeature = 'chat'): CpuCatalogueModel {
  const id = DEFAULTS[feature];
  return cpuModelCatalogue.find((m) => m.id === id)!;
}
