import { ModelManager } from '@inkling/react';
import { cpuStorage } from './cpuStorage.js';

/** The CPU models on this device: sizes, free space, persistence, delete. */
export function StoredModels() {
  return (
    <details className="stored-models">
      <summary>Models on this device</summary>
      <ModelManager storage={cpuStorage} />
    </details>
  );
}
