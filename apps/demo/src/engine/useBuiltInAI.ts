import { type BuiltInAIProbe, detectBuiltInAI } from '@inkling/browser-ai';
import { useEffect, useState } from 'react';
import { BUILT_IN_PAIR } from './pool.js';

/**
 * What Chrome's built-in AI can do here (`availability()` only: no request,
 * no download): `detected` when known at start, else asked here; `null`
 * while unknown.
 */
export function useBuiltInAI(detected: BuiltInAIProbe | null): BuiltInAIProbe | null {
  const [probe, setProbe] = useState<BuiltInAIProbe | null>(detected);
  useEffect(() => {
    if (probe) return;
    let live = true;
    void detectBuiltInAI({ translation: BUILT_IN_PAIR }).then((found) => {
      if (live) setProbe(found);
    });
    return () => {
      live = false;
    };
  }, [probe]);
  return probe;
}

/** The choice of Chrome's built-in model with the parts `probe` says can run here. */
export function builtInChoice(probe: BuiltInAIProbe): { kind: 'built-in'; prompt: boolean; translation: boolean } {
  return { kind: 'built-in', prompt: probe.prompt.usable, translation: probe.translation.usable };
}

/** Whether any part of Chrome's built-in model can run here (now, or after a download the person asks for). */
export function builtInUsable(probe: BuiltInAIProbe | null): boolean {
  return probe !== null && (probe.prompt.usable || probe.translation.usable);
}
