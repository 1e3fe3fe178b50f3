import type { Pool } from '@inkling/scheduler';
import { type InklingEmbeddingSettings, InklingEmbeddingModel } from './inklingEmbeddingModel.js';
import { InklingLanguageModel } from './inklingLanguageModel.js';
import type { InklingCallSettings } from './scheduling.js';

/**
 * An Inkling provider: call it (or `languageModel`) for a language model,
 * `embeddingModel` for embeddings. The model id defaults to `'inkling'`.
 *
 * @example
 * const inkling: InklingProvider = createInkling({ pool });
 * const chat = inkling('qwen');
 * const embedder = inkling.embeddingModel('minilm');
 */
export interface InklingProvider {
  (modelId?: string, settings?: InklingCallSettings): InklingLanguageModel;
  languageModel(modelId?: string, settings?: InklingCallSettings): InklingLanguageModel;
  embeddingModel(modelId?: string, settings?: InklingEmbeddingSettings): InklingEmbeddingModel;
}

/**
 * Turns an Inkling `Pool` (an `EnginePool` over any engine, or a shared pool's
 * client) into an AI SDK provider. Every call becomes a job on the pool's
 * scheduler, so two chats and a background `generateObject` share the engines
 * the way Inkling's own hooks do, and ghost text on the same pool never waits
 * behind them. The model id is a label (the pool's engines decide the model).
 *
 * @example
 * const inkling = createInkling({ pool });
 * const { textStream } = streamText({ model: inkling('qwen'), prompt: 'Hi' });
 * const { object } = await generateObject({ model: inkling('qwen'), schema: z.object({ title: z.string() }), prompt });
 * // Per call: providerOptions: { inkling: { priority: 'low', session: 'summary' } }
 */
export function createInkling({ pool }: { pool: Pool }): InklingProvider {
  const languageModel = (modelId = 'inkling', settings?: InklingCallSettings) => new InklingLanguageModel(pool, modelId, settings);
  const provider = ((modelId?: string, settings?: InklingCallSettings) => languageModel(modelId, settings)) as InklingProvider;
  provider.languageModel = languageModel;
  provider.embeddingModel = (modelId = 'inkling', settings?: InklingEmbeddingSettings) =>
    new InklingEmbeddingModel(pool, modelId, settings);
  return provider;
}
