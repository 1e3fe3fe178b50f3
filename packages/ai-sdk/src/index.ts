export { createInkling } from './createInkling.js';
export { InklingLanguageModel } from './inklingLanguageModel.js';
export { InklingEmbeddingModel } from './inklingEmbeddingModel.js';
export type { InklingProvider } from './createInkling.js';
export type { InklingCallSettings } from './scheduling.js';
export type { InklingEmbeddingSettings } from './inklingEmbeddingModel.js';
