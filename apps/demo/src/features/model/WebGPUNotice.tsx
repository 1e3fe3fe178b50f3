import type { WebGPUSupport } from '@inkling/webllm';
import type { EngineChoice } from '../../engine/engineChoice.js';
import type { EngineOffer } from '../../engine/engineOffers.js';

interface WebGPUNoticeProps {
  /** What `detectWebGPU` found: no WebGPU (its `reason`), or only a software adapter. */
  gpu: WebGPUSupport;
  /** The engines that run here anyway, best first. */
  offers: readonly EngineOffer[];
  onChoose: (choice: EngineChoice) => void;
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1).replace(/\.?$/, '.')} `;
}

/**
 * Says once, plainly, why the GPU models cannot run here (no WebGPU) or
 * should not (a software adapter: seconds a word), and offers what runs.
 */
export function WebGPUNotice({ gpu, offers, onChoose }: WebGPUNoticeProps) {
  const adapter = gpu.adapter?.description || gpu.adapter?.architecture || gpu.adapter?.vendor;
  return (
    <section className="notice" aria-labelledby="webgpu-heading">
      {gpu.supported ? (
        <>
          <h2 id="webgpu-heading">This browser's WebGPU runs in software</h2>
          <p>
            WebGPU here has only a software adapter{adapter ? ` (${adapter})` : ''}, which does the GPU's work on the processor: a WebLLM
            model would take seconds for each word. A model made for the CPU (llama.cpp) is faster on the same processor, so it comes before
            the WebLLM models in the list; they are still there if you want to try one.
            {offers.length > 0 ? ' Or:' : ''}
          </p>
        </>
      ) : (
        <>
          <h2 id="webgpu-heading">WebGPU is not available in this browser</h2>
          <p>
            {gpu.reason ? sentence(gpu.reason) : ''}
            The WebLLM models in the list run on your device's GPU through WebGPU (Chrome or Edge 113+ on most desktops), so none of them
            can load here. You can still try everything:
          </p>
        </>
      )}
      {offers.length > 0 ? (
        <ul className="notice-offers">
          {offers.map((offer) => (
            <li key={offer.label}>
              <button type="button" className="button primary" onClick={() => onChoose(offer.choice)}>
                {offer.label}
              </button>
              <span>{offer.description}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
