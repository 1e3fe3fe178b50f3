// Writes a tiny GGUF chat model (random weights, about 9 MB) to
// public/models/chat.gguf, so the demo's CPU engine can run a real llama.cpp
// model without downloading one: start the demo and open
// http://127.0.0.1:5173/?cpuModel=/models/chat.gguf, then choose the CPU model.
// Its words are nonsense: it shows the engine and the scheduling, not a model's quality.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '@inkling/wllama/testing';

const folder = fileURLToPath(new URL('../public/models/', import.meta.url));
mkdirSync(folder, { recursive: true });
const model = makeTinyGguf({ seed: 1 });
writeFileSync(`${folder}chat.gguf`, model);
// oxlint-disable-next-line no-console -- a script that says what it wrote
console.log(`Wrote ${folder}chat.gguf (${Math.round(model.byteLength / 1000)} kB). Open the demo with ?cpuModel=/models/chat.gguf`);
