import type { BuiltInAIProbe } from '@inkling/browser-ai';
import { builtInUsable } from '../../engine/useBuiltInAI.js';

interface BuiltInAIOfferProps {
  /** What `detectBuiltInAI` found (`availability()` only). */
  probe: BuiltInAIProbe;
  /** The person chose the built-in model (a click: Chrome downloads its models only on one). */
  onUse: () => void;
}

/** A probe's reason without the API's name in front, which the line's label already says (the whole reason if it starts otherwise). */
function why(reason: string): string {
  return reason.replace(/^Chrome's built-in (model|translator) \(the (Prompt|Translator) API\) /, '');
}

/**
 * Offers "Chrome's built-in model" where `availability()` says a part of it
 * can run (ready, or after a download that the button starts), saying per
 * feature what it does here; where none can, one plain sentence says why.
 * It only shows what the probe found: no request, no download.
 */
export function BuiltInAIOffer({ probe, onUse }: BuiltInAIOfferProps) {
  if (!builtInUsable(probe)) {
    const same = probe.prompt.state === probe.translation.state;
    return (
      <section className="built-in-line" aria-label="Chrome's built-in model" data-built-in={probe.prompt.state}>
        <p>
          {same
            ? `Chrome's built-in model ${why(probe.prompt.reason)}`
            : `Chrome's built-in model is not offered here. Ghost text: ${why(probe.prompt.reason)} Translation: ${why(probe.translation.reason)}`}
        </p>
      </section>
    );
  }
  return (
    <section className="built-in-offer" aria-labelledby="built-in-heading" data-built-in="offered">
      <h2 id="built-in-heading">Chrome&apos;s built-in model</h2>
      <ul className="built-in-parts">
        <li data-state={probe.prompt.state}>
          <strong>Ghost text:</strong> {why(probe.prompt.reason)}
        </li>
        <li data-state={probe.translation.state}>
          <strong>Translation (English to French):</strong> {why(probe.translation.reason)}
        </li>
      </ul>
      <button type="button" className="button" onClick={onUse}>
        Use Chrome&apos;s built-in model
      </button>
    </section>
  );
}
