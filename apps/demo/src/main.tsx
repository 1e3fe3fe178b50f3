import '@inkling/react/styles.css';
import './app.css';
import { type BuiltInAIProbe, detectBuiltInAI } from '@inkling/browser-ai';
import { type WebGPUSupport, detectWebGPU } from '@inkling/webllm';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { deviceDefault } from './engine/deviceDefault.js';
import { initialChoice } from './engine/engineChoice.js';
import { BUILT_IN_PAIR, selectEngines } from './engine/pool.js';

// WebGPU and Chrome's built-in AI are checked before the first paint, so a
// "no WebGPU" notice and the built-in offer are there from the start instead
// of pushing the page down when the answers come. A check slower than this
// renders at once and the app finishes it (useWebGPU, useBuiltInAI).
const PATIENCE_MS = 1000;

const within = <T,>(check: Promise<T>): Promise<T | null> =>
  Promise.race([check.catch(() => null), new Promise<null>((done) => setTimeout(() => done(null), PATIENCE_MS))]);

function render(gpu: WebGPUSupport | null, builtIn: BuiltInAIProbe | null) {
  // The first choice follows the device: a software GPU starts on the CPU model.
  const start = initialChoice(deviceDefault(gpu));
  selectEngines(start.choice);
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App detected={gpu} builtIn={builtIn} start={start} />
    </StrictMode>,
  );
}

// Both at once, each within the same patience: `availability()` only, no request and no download.
void Promise.all([within(detectWebGPU()), within(detectBuiltInAI({ translation: BUILT_IN_PAIR }))]).then(([gpu, builtIn]) =>
  render(gpu, builtIn),
);
