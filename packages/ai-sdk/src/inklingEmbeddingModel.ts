import type { EmbeddingModelV4, EmbeddingModelV4CallOptions, EmbeddingModelV4Result, SharedV4Warning } from '@ai-sdk/provider';
import type { Pool, Priority } from '@inkling/scheduler';
import { abortError, aiSdkError } from './aiSdkError.js';

/**
 * How embedding calls are scheduled, set per model
 * (`embeddingModel(id, settings)`) or per call through
 * `providerOptions: { inkling: { ... } }` (the call's own win over the
 * model's). An unknown key in `providerOptions.inkling` is left out with an
 * `'unsupported'` warning in the call's `warnings`.
 *
 * @example
 * createInkling({ pool }).embeddingModel('minilm', { priority: 'low', task: 'index' });
 * embedMany({ model, values, providerOptions: { inkling: { priority: 'low' } } });
 */
export interface InklingEmbeddingSettings {
  /** Default `'normal'`. */
  priority?: Priority;
  /** Default `true`: embedding an index can wait for what a person types. */
  preemptible?: boolean;
  /** Default: each call its own. */
  task?: string;
  /** A later call with the same session cancels this one (a search box's query as it is typed). Default: none. */
  session?: string;
}

const KEYS = ['priority', 'preemptible', 'task', 'session'] as const;

/**
 * The settings an embedding call runs with: the call's `providerOptions.inkling`,
 * then the model's, then the defaults; a warning for each key it does not
 * know and for headers (engines run in the page).
 */
function embedSettings(
  options: EmbeddingModelV4CallOptions,
  model: InklingEmbeddingSettings,
): { settings: InklingEmbeddingSettings; warnings: SharedV4Warning[] } {
  const warnings: SharedV4Warning[] = [];
  const given = (options.providerOptions?.inkling ?? {}) as Record<string, unknown>;
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if ((KEYS as readonly string[]).includes(key)) own[key] = value;
    else {
      warnings.push({
        type: 'unsupported',
        feature: `providerOptions.inkling.${key}`,
        details: `Not an Inkling setting, so it was left out; an embedding call takes ${KEYS.join(', ')}.`,
      });
    }
  }
  const headers = Object.keys(options.headers ?? {}).filter((name) => name.toLowerCase() !== 'user-agent');
  if (headers.length > 0) {
    warnings.push({
      type: 'unsupported',
      feature: 'headers',
      details: 'Engines run in the page; set server headers on the engine (openaiEngines).',
    });
  }
  return { settings: { priority: 'normal', preemptible: true, ...model, ...(own as InklingEmbeddingSettings) }, warnings };
}

/**
 * An AI SDK embedding model (specification v4) over an Inkling pool of an
 * embedding model. Made by `createInkling(...).embeddingModel()`.
 *
 * @example
 * const { embeddings } = await embedMany({ model: createInkling({ pool }).embeddingModel('minilm'), values: ['a', 'b'] });
 */
export class InklingEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'inkling';
  readonly modelId: string;
  readonly maxEmbeddingsPerCall = undefined;
  readonly supportsParallelCalls = true;
  readonly #pool: Pool;
  readonly #settings: InklingEmbeddingSettings;

  constructor(pool: Pool, modelId: string, settings: InklingEmbeddingSettings = {}) {
    this.#pool = pool;
    this.modelId = modelId;
    this.#settings = settings;
  }

  async doEmbed(options: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
    const { settings, warnings } = embedSettings(options, this.#settings);
    const { priority, preemptible, task, session } = settings;
    const params = { input: options.values };
    const result = await this.#pool.submit({
      kind: 'embedding',
      params,
      ...(priority !== undefined ? { priority } : {}),
      ...(preemptible !== undefined ? { preemptible } : {}),
      ...(task !== undefined ? { task } : {}),
      ...(session !== undefined ? { session } : {}),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
    });
    if (result.status === 'error' && result.error) throw aiSdkError(result.error, params);
    if (result.status !== 'done') throw abortError();
    const vectors = (result.embeddings ?? []).toSorted((a, b) => a.index - b.index).map((e) => e.embedding);
    const tokens = (result.usage as { prompt_tokens?: number } | undefined)?.prompt_tokens;
    return { embeddings: vectors, warnings, ...(tokens !== undefined ? { usage: { tokens } } : {}) };
  }
}
