import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// By path: globalSetup is loaded by Node, outside the suite's resolve conditions.
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import { TEST_MODELS, WEBLLM_LAYOUT } from './test/testModels.js';

/** Where the generated models go: an ignored folder at the repository's root, served as the suite's public folder. */
export const MODEL_DIR = fileURLToPath(new URL('../../.test-models/', import.meta.url));

/** Writes the suite's models before any test runs (about a second; never committed). */
export default function setup(): void {
  mkdirSync(MODEL_DIR, { recursive: true });
  for (const model of Object.values(TEST_MODELS)) writeFileSync(MODEL_DIR + model.file, makeTinyGguf(model.shape));
  // A WebLLM weights folder (manifest and shards) for the room-check tests; WebLLM never runs it.
  const { shards, shardBytes } = WEBLLM_LAYOUT;
  const records = Array.from({ length: shards }, (_, i) => ({
    dataPath: `${WEBLLM_LAYOUT.shardPrefix}${i}.bin`,
    format: 'raw-shard',
    nbytes: shardBytes,
    records: [],
  }));
  writeFileSync(MODEL_DIR + 'tensor-cache.json', JSON.stringify({ metadata: {}, records }));
  for (const record of records) writeFileSync(MODEL_DIR + record.dataPath, new Uint8Array(shardBytes).fill(7));
}
