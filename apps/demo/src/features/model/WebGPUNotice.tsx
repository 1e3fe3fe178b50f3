import type { EngineChoice } from '../../engine/engineChoice.js';
import type { EngineOffer } from '../../engine/engineOffers.js';

interface WebGPUNoticeProps {
  /** Why WebGPU is missing, from `detectWebGPU`. */
  reason: string | null;
  /** The engines that run here anyway, best first. */
  offers: readonly EngineOffer[];
  onChoose: (choice: EngineChoice) => void;
}

/** Says once, plainly, that no GPU model can run in this browser, and offers what can. */
export function WebGPUNotice({ reason, offers, onChoose }: WebGPUNoticeProps) {
  return (
    <section className="notice" aria-labelledby="webgpu-heading">
      <h2 id="webgpu-heading">WebGPU is not available in this browser</h2>
      <p>
        {reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1).replace(/\.?$/, '.')} ` : ''}
        The models in the list run on your device's GPU through WebGPU (Chrome or Edge 113+ on most desktops), so none of
        them can load here. You can still try everything:
      </p>
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
    </section>
  );
}
