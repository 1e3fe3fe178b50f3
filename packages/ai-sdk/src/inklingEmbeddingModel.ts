import type { EmbeddingModelV4, EmbeddingModelV4CallOptions, EmbeddingModelV4Result } from '@ai-sdk/provider';
import type { Pool, Priority } from '@inkling/scheduler';
import { abortError, aiSdkError } from './aiSdkError.js';

/**
 * How embedding calls are scheduled.
 *
 * @example
 * createInkling({ pool }).embeddingModel('minilm', { priority: 'low', task: 'index' });
 */
export interface InklingEmbeddingSettings {
  /** Default `'normal'`. */
  priority?: Priority;
  /** Default `true`: embedding an index can wait for what a person types. */
  preemptible?: boolean;
  /** Default: each call its own. */
  task?: string;
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
    const { priority = 'normal', preemptible = true, task } = this.#settings;
    const params = { input: options.values };
    const result = await this.#pool.submit({
      kind: 'embedding',
      params,
      priority,
      preemptible,
      ...(task !== undefined ? { task } : {}),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
    });
    if (result.status === 'error' && result.error) throw aiSdkError(result.error, params);
    if (result.status !== 'done') throw abortError();
    const vectors = (result.embeddings ?? []).toSorted((a, b) => a.index - b.index).map((e) => e.embedding);
    const tokens = (result.usage as { prompt_tokens?: number } | undefined)?.prompt_tokens;
    return { embeddings: vectors, warnings: [], ...(tokens !== undefined ? { usage: { tokens } } : {}) };
  }
}
