/**
 * Writes the wllama test model (a tiny random-weight Llama GGUF whose
 * vocabulary holds common English words) to the path given, for servers
 * that load GGUF files, such as llama.cpp's on the GPU machine.
 *
 *   node makeModel.mjs tiny.gguf
 */
import { writeFileSync } from 'node:fs';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';

const out = process.argv[2] ?? 'tiny.gguf';
const bytes = makeTinyGguf({ seed: 1, context: 8192 });
writeFileSync(out, bytes);
console.log(`wrote ${out}: ${bytes.byteLength} bytes`);
