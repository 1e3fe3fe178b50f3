/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The switches every headless Chromium run of the project starts with: no
 * sandbox (tests run as root), and no background traffic on a machine whose
 * network reaches nothing but the package registries. `webgpu` swaps
 * `--disable-gpu` for `--enable-unsafe-webgpu` (SwiftShader's software
 * adapter). `headlessSwitch: false` leaves `--headless=new` to a runner that
 * sets headless mode itself (Vitest's browser provider).
 *
 * @example
 * chromium.launch({ executablePath: CHROMIUM, args: chromiumFlags({ webgpu: true }) });
 */
export function chromiumFlags({ webgpu = false, headlessSwitch = true }: { webgpu?: boolean; headlessSwitch?: boolean } = {}): string[] {
  return [
    ...(headlessSwitch ? ['--headless=new'] : []),
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    webgpu ? '--enable-unsafe-webgpu' : '--disable-gpu',
  ];
}
