import '@inkling/react/styles.css';
import './app.css';
import { type WebGPUSupport, detectWebGPU } from '@inkling/webllm';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { deviceDefault } from './engine/deviceDefault.js';
import { initialChoice } from './engine/engineChoice.js';
import { selectEngines } from './engine/pool.js';

// WebGPU is checked before the first paint, so a "no WebGPU" notice is there
// from the start instead of pushing the page down when the answer comes. A
// check slower than this renders at once and the app finishes it (useWebGPU).
const PATIENCE_MS = 1000;

function render(gpu: WebGPUSupport | null) {
  // The first choice follows the device: a software GPU starts on the CPU model.
  const start = initialChoice(deviceDefault(gpu));
  selectEngines(start.choice);
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App detected={gpu} start={start} />
    </StrictMode>,
  );
}

void Promise.race([detectWebGPU().catch(() => null), new Promise<null>((done) => setTimeout(() => done(null), PATIENCE_MS))]).then(render);
