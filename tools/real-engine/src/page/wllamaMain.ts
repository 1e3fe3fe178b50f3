import { wllamaEngines } from '@inkling/wllama';
import { SPACE_MARK, testVocabulary } from '@inkling/wllama/testing';
import { type CheckResult, runChecks } from '../checks.js';
import { WLLAMA_MODELS } from '../wllamaModels.js';

declare global {
  interface Window {
    inklingChecks?: { results: CheckResult[]; error?: string };
  }
}

const log = (line: string) => console.log(`[check] ${line}`);

// The same checks as the WebLLM page, on wllama: a random-weight model that a logit_bias steers
// to one word, so the answer is known.
const OH = testVocabulary().tokens.indexOf(`${SPACE_MARK}oh`);

runChecks({
  chat: wllamaEngines({ model: `/models/${WLLAMA_MODELS.chat.file}`, wasmUrl: '/wasm/wllama.wasm', seed: 7 }),
  embed: wllamaEngines({ model: `/models/${WLLAMA_MODELS.embed.file}`, wasmUrl: '/wasm/wllama.wasm', embeddings: true }),
  log,
  expect: { deterministic: { temperature: 0, logit_bias: { [OH]: 100 } }, threeTokens: ' oh oh oh', embeddingWidth: 128 },
}).then(
  (results) => (window.inklingChecks = { results }),
  (error: unknown) => (window.inklingChecks = { results: [], error: String(error) }),
);
