import { type GhostParamsInput, defaultGhostParams } from '@inkling/react';
import type { ChatCompletionRequest } from '@inkling/scheduler';

/**
 * The ghost-text prompt builders the bench can measure, by name
 * (`pnpm bench:wllama --ghost-prompt=default,other`). Add one here to compare
 * it with the default: the bench reports, per builder, first-token latency
 * and the prompt tokens llama.cpp read and reused from its cache per keystroke.
 */
export const GHOST_PROMPTS: Record<string, (input: GhostParamsInput) => ChatCompletionRequest> = {
  default: defaultGhostParams,
};
