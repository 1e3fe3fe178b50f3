import type { WebLLMModelRecord } from './types.js';

/** A feature of the kit, for picking a default model. */
export type ModelFeature = 'ghostText' | 'translation' | 'chat' | 'embeddings';

/** One model of the catalogue. */
export interface CatalogueModel {
  /** WebLLM's prebuilt `model_id`. */
  readonly id: string;
  /** Chat (`'llm'`) or vectors (`'embedding'`). */
  readonly kind: 'llm' | 'embedding';
  /** Parameters, for display. */
  readonly parameters: string;
  /** GPU memory one engine needs (WebLLM's `vram_required_MB`). A pool of 2 needs twice this. */
  readonly vramRequiredMB: number;
  /** Needs the WebGPU feature `shader-f16`. */
  readonly shaderF16: boolean;
  /** Runs on phones and small laptops (WebLLM's `low_resource_required`). */
  readonly lowResource: boolean;
}

const llm = (id: string, parameters: string, vramRequiredMB: number): CatalogueModel => ({
  id,
  kind: 'llm',
  parameters,
  vramRequiredMB,
  shaderF16: quantisationNeedsF16(id),
  lowResource: true,
});

/**
 * A few of WebLLM's prebuilt models that suit the kit's features, each in an
 * f16 build (smaller, needs `shader-f16`) and an f32 build (runs anywhere).
 * Figures are WebLLM 0.2.86's `prebuiltAppConfig`.
 *
 * @example
 * const fits = modelCatalogue.filter((m) => m.vramRequiredMB < 1200 && !m.shaderF16);
 */
export const modelCatalogue: readonly CatalogueModel[] = [
  llm('Qwen2.5-0.5B-Instruct-q4f16_1-MLC', '0.5B', 944.62),
  llm('Qwen2.5-0.5B-Instruct-q4f32_1-MLC', '0.5B', 1060.2),
  llm('Qwen2.5-1.5B-Instruct-q4f16_1-MLC', '1.5B', 1629.75),
  llm('Qwen2.5-1.5B-Instruct-q4f32_1-MLC', '1.5B', 1888.97),
  llm('Llama-3.2-1B-Instruct-q4f16_1-MLC', '1B', 879.04),
  llm('Llama-3.2-1B-Instruct-q4f32_1-MLC', '1B', 1128.82),
  llm('SmolLM2-360M-Instruct-q4f16_1-MLC', '360M', 376.06),
  llm('SmolLM2-360M-Instruct-q4f32_1-MLC', '360M', 579.61),
  {
    id: 'snowflake-arctic-embed-s-q0f32-MLC-b4',
    kind: 'embedding',
    parameters: '33M',
    vramRequiredMB: 238.71,
    shaderF16: false,
    lowResource: true,
  },
  {
    id: 'snowflake-arctic-embed-m-q0f32-MLC-b4',
    kind: 'embedding',
    parameters: '109M',
    vramRequiredMB: 539.4,
    shaderF16: false,
    lowResource: true,
  },
];

/** The catalogue's pick per feature, f16 build first (it is smaller), then f32. */
const DEFAULTS: Record<ModelFeature, readonly [string, string]> = {
  // Ghost text wants the lowest latency per keystroke: the smallest instruct model that stays coherent.
  ghostText: ['Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC'],
  // Qwen2.5 is trained on many languages; 1.5B translates markedly better than 0.5B.
  translation: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC'],
  chat: ['Llama-3.2-1B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f32_1-MLC'],
  embeddings: ['snowflake-arctic-embed-s-q0f32-MLC-b4', 'snowflake-arctic-embed-s-q0f32-MLC-b4'],
};

/**
 * The catalogue's model for a feature: the f16 build when the adapter has
 * `shader-f16`, else the f32 one. Default `shaderF16: false` (runs anywhere).
 *
 * @example
 * const gpu = await detectWebGPU();
 * const model = defaultModel('ghostText', { shaderF16: gpu.shaderF16 });
 * const pool = new EnginePool({ createEngine: webllmEngines({ model }) });
 */
export function defaultModel(feature: ModelFeature, options: { shaderF16?: boolean } = {}): string {
  const [f16, f32] = DEFAULTS[feature];
  return options.shaderF16 ? f16 : f32;
}

/**
 * The catalogue entry for a model id, or `undefined`.
 *
 * @example
 * findModel('Qwen2.5-0.5B-Instruct-q4f32_1-MLC')?.vramRequiredMB; // 1060.2
 */
export function findModel(id: string): CatalogueModel | undefined {
  return modelCatalogue.find((m) => m.id === id);
}

/**
 * Whether a model needs `shader-f16`: its record says so, or its quantisation
 * is a `q*f16` one (WebLLM's records omit the feature for some of those).
 *
 * @example
 * needsShaderF16({ model_id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', model: '', model_lib: '' }); // true
 */
export function needsShaderF16(record: Pick<WebLLMModelRecord, 'model_id' | 'model_lib' | 'required_features'>): boolean {
  if (record.required_features?.includes('shader-f16')) return true;
  const lib = record.model_lib.split('/').pop() ?? '';
  return quantisationNeedsF16(record.model_id) || quantisationNeedsF16(lib);
}

/**
 * The f32 build's id for an f16 one (`q4f16_1` -> `q4f32_1`), or the id
 * unchanged when it is not an f16 build.
 *
 * @example
 * f32Variant('Llama-3.2-1B-Instruct-q4f16_1-MLC'); // 'Llama-3.2-1B-Instruct-q4f32_1-MLC'
 */
export function f32Variant(id: string): string {
  return id.replace(/(q\d)f16/, '$1f32');
}

function quantisationNeedsF16(name: string): boolean {
  return /(^|[-_])q\df16(_\d)?($|[-_.])/.test(name);
}
