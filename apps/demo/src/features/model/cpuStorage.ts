import { wllamaModelStorage } from '@inkling/wllama';

/** The CPU (wllama) models this browser has stored, made once for the picker and the manager. */
export const cpuStorage = wllamaModelStorage();
