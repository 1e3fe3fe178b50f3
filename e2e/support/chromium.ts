import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

import { CHROMIUM, chromiumFlags } from './chromiumFlags.js';

export { CHROMIUM };

/**
 * Launches headless Chromium. `webgpu` swaps `--disable-gpu` for
 * `--enable-unsafe-webgpu` (SwiftShader), for pages that need an adapter.
 */
export async function launchChromium(options: { webgpu?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not at ${CHROMIUM}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: chromiumFlags(options), headless: true });
}
