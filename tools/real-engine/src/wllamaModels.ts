import type { TinyGgufOptions } from '@inkling/wllama/testing';

/** The random-weight GGUF models `verify:real-engine --engine=wllama` generates and serves at /models/. */
export const WLLAMA_MODELS = {
  chat: { file: 'inkling-chat-8m.gguf', shape: { seed: 1 } },
  embed: { file: 'inkling-embed-2m.gguf', shape: { seed: 2, embedding: 128, layers: 2, heads: 2, feedForward: 384, embeddingModel: true } },
} as const satisfies Record<string, { file: string; shape: TinyGgufOptions }>;
