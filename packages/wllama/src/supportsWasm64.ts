/** The smallest module with a 64-bit memory: magic, version, one memory section (flags 0x04, min 1). */
const MEMORY64_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 4, 1]);

/**
 * Whether this runtime's WebAssembly has 64-bit memory (memory64), which
 * wllama's build needs.
 *
 * @example
 * if (!supportsWasm64()) showMessage('This browser cannot run the CPU engine.');
 */
export function supportsWasm64(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(MEMORY64_MODULE);
  } catch {
    return false;
  }
}
