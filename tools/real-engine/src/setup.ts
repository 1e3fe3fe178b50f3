import type { WebLLMAppConfig } from '@inkling/webllm';

/** The model libraries the check uses, from the public repository mlc-ai/binary-mlc-llm-libs. */
export const LIBS = {
  chat: 'Qwen2-0.5B-Instruct-q4f32_1-ctx4k_cs1k-webgpu.wasm',
  embedding: 'snowflake-arctic-embed-s-q0f32-ctx512_cs512_batch4-webgpu.wasm',
} as const;

/** Where those libraries live in that repository (built for @mlc-ai/web-llm 0.2.79). */
export const LIBS_FOLDER = 'web-llm-models/v0_2_48';

export const CHAT_MODEL = 'qwen2-synthetic';
export const EMBED_MODEL = 'embed-synthetic';

/** Qwen's token " ok". With zero weights every logit is 0, so this bias decides every token. */
export const OK_TOKEN = 5394;
export const DETERMINISTIC = { temperature: 0, logit_bias: { [OK_TOKEN]: 100 } };

/** The AppConfig for the synthetic models served at `base`. */
export function syntheticAppConfig(base: string, withEmbedding: boolean): WebLLMAppConfig {
  const model_list: WebLLMAppConfig['model_list'] = [
    {
      model: `${base}/models/${CHAT_MODEL}`,
      model_id: CHAT_MODEL,
      model_lib: `${base}/libs/${LIBS.chat}`,
      overrides: { context_window_size: 1024 },
    },
  ];
  if (withEmbedding) {
    model_list.push({
      model: `${base}/models/${EMBED_MODEL}`,
      model_id: EMBED_MODEL,
      model_lib: `${base}/libs/${LIBS.embedding}`,
      model_type: 1,
    });
  }
  return { model_list };
}
