import { type CpuCatalogueModel, cpuModelCatalogue, defaultCpuModel } from '@inkling/wllama';
import type { EngineChoice } from './engineChoice.js';
import { modelName } from './engineName.js';

/** A GGUF model the demo can run on the CPU, with its download size when known. */
export interface CpuModel {
  choice: Extract<EngineChoice, { kind: 'cpu' }>;
  /** Megabytes to download; `null` for a file named in the URL (its size shows as it downloads). */
  sizeMB: number | null;
}

const fromCatalogue = (model: CpuCatalogueModel): CpuModel => ({
  choice: { kind: 'cpu', model: model.id, url: model.url },
  sizeMB: model.sizeMB,
});

/**
 * `?cpuModel=/models/chat.gguf` runs that GGUF file instead of the
 * catalogue's, for tests and for trying a file served next to the demo. Only
 * a file on this page's own origin is taken; anything else is ignored.
 */
function modelFromUrl(): CpuModel | null {
  const given = new URLSearchParams(location.search).get('cpuModel');
  if (!given || !URL.canParse(given, location.href)) return null;
  const url = new URL(given, location.href);
  if (url.origin !== location.origin) return null;
  const name = url.pathname.split('/').pop() || 'model.gguf';
  return { choice: { kind: 'cpu', model: name, url: url.href }, sizeMB: null };
}

const override = modelFromUrl();

/**
 * The CPU models the picker lists, the ghost-text default first: the
 * catalogue's chat models, or only the file `?cpuModel=` names.
 */
export const CPU_MODELS: readonly CpuModel[] = override
  ? [override]
  : [defaultCpuModel('ghostText'), ...cpuModelCatalogue.filter((m) => m.kind === 'llm' && m.id !== defaultCpuModel('ghostText').id)].map(
      fromCatalogue,
    );

/** A CPU model's name and download size, for a label: "SmolLM2-360M-Instruct · 386 MB". */
export function cpuModelLabel(model: CpuModel): string {
  const name = modelName(model.choice.model);
  return model.sizeMB === null ? name : `${name} · ${Math.round(model.sizeMB)} MB`;
}
