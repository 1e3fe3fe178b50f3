import { type BuiltInAIProbe, builtInEngines, detectBuiltInAI } from '@inkling/browser-ai';
import type { CreateEngine } from '@inkling/react';
import { useEffect, useState } from 'react';

/**
 * The engines of "Chrome's built-in model" for what the probe says can run:
 * the Prompt API for the notes' ghost text where it can, the Translator API
 * for the page translation (its en→`to` model downloaded on load, which the
 * person's click starts).
 */
export function builtInChoiceEngines(probe: BuiltInAIProbe, to: string): CreateEngine {
  return builtInEngines({
    prompt: probe.prompt.usable ? {} : false,
    translation: probe.translation.usable ? { languages: [{ from: 'en', to }] } : false,
  });
}

interface BuiltInAIOfferProps {
  /** The page translation's target language, which the translation probe asks about. */
  to: string;
  /** The person chose the built-in model (a click: Chrome downloads its models only on one). */
  onUse: (probe: BuiltInAIProbe) => void;
}

/**
 * Offers "Chrome's built-in model" first where `availability()` says it can
 * run, and says why not where it cannot. It asks once, on mount, with no
 * request and no download.
 */
export function BuiltInAIOffer({ to, onUse }: BuiltInAIOfferProps) {
  const [probe, setProbe] = useState<BuiltInAIProbe | null>(null);
  useEffect(() => {
    let live = true;
    void detectBuiltInAI({ translation: { from: 'en', to } }).then((found) => live && setProbe(found));
    return () => {
      live = false;
    };
  }, [to]);
  if (!probe) return null;
  const usable = probe.prompt.usable || probe.translation.usable;
  return (
    <section className="notice" aria-labelledby="built-in-heading" data-built-in={usable ? 'offered' : 'absent'}>
      <h2 id="built-in-heading">Chrome&apos;s built-in model</h2>
      <ul className="notice-offers">
        <li>
          <strong>Ghost text:</strong> <span>{probe.prompt.reason}</span>
        </li>
        <li>
          <strong>Translation:</strong> <span>{probe.translation.reason}</span>
        </li>
      </ul>
      {usable ? (
        <button type="button" className="button primary" onClick={() => onUse(probe)}>
          Use Chrome&apos;s built-in model
        </button>
      ) : null}
    </section>
  );
}
