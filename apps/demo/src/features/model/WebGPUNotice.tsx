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
      <h2 id="webgpu-heading">{gpu.supported ? "This browser's WebGPU runs in software" : 'WebGPU is not available in this browser'}</h2>
      <details className="notice-why">
        <summary>Why?</summary>
        {gpu.supported ? (
          <p>
            WebGPU here has only a software adapter{adapter ? ` (${adapter})` : ''}, which does the GPU's work on the processor: a WebLLM
            model would take seconds for each word. A model made for the CPU (llama.cpp) is faster on the same processor, so it comes before
            the WebLLM models in the list; they are still there if you want to try one.
          </p>
        ) : (
          <p>
            {gpu.reason ? sentence(gpu.reason) : ''}
            The WebLLM models in the list run on your device's GPU through WebGPU (Chrome or Edge 113+ on most desktops), so none of them
            can load here.
          </p>
        )}
      </details>
      {offers.length > 0 ? (
        <ul className="notice-offers">
          {offers.map((offer, index) => (
            <li key={offer.label}>
              {/* One primary action: the best offer; the rest are plain buttons. */}
              <button type="button" className={index === 0 ? 'button primary' : 'button'} onClick={() => onChoose(offer.choice)}>
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
