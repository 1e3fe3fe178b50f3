import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Launches headless Chromium. `webgpu` swaps `--disable-gpu` for
 * `--enable-unsafe-webgpu` (SwiftShader), for pages that need an adapter.
 */
export async function launchChromium(options: { webgpu?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  const args = [...FLAGS, options.webgpu ? '--enable-unsafe-webgpu' : '--disable-gpu'];
  return chromium.launch({ executablePath: CHROMIUM, args, headless: true });
}
