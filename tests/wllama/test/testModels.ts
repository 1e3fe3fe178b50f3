import type { TinyGgufOptions } from '@inkling/wllama/testing';

/** The suite's models: file name (served at `/<file>`) and shape. */
export const TEST_MODELS = {
  /** ~8M parameters, 6 layers of width 256: the chat model. */
  chat: { file: 'inkling-chat-8m.gguf', shape: { seed: 1 } },
  /** A narrower model made for embeddings (mean pooling), width 128. */
  embed: { file: 'inkling-embed-2m.gguf', shape: { seed: 2, embedding: 128, layers: 2, heads: 2, feedForward: 384, embeddingModel: true } },
} as const satisfies Record<string, { file: string; shape: TinyGgufOptions }>;

/** A WebLLM model's weights as the suite serves them at `/__models/<key>/resolve/main/`: `tensor-cache.json` and its shards. */
export const WEBLLM_LAYOUT = { shards: 3, shardBytes: 256 * 1024, shardPrefix: 'tiny-webllm-shard-' } as const;

/** The byte the served file's second version (`version=2`, modelServer.ts) changes: past the first 5 MB, in the weights, where a GGUF still loads. */
export const NEW_VERSION_AT = 5_000_000;
