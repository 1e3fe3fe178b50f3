// Browser tests drive Debian's Chromium (never a downloaded browser). On a
// fresh Debian machine it is not there yet: install it from Debian's packages.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const root = process.getuid?.() === 0;
  const sudo = root ? '' : 'sudo ';
  console.log(`Chromium is not at ${CHROMIUM}; installing Debian's package (${sudo}apt-get install -y chromium)...`);
  try {
    execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, {
      stdio: 'inherit',
    });
  } catch {
    console.error(
      `Could not install Chromium. Install it yourself (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary, then run the tests again.`,
    );
    process.exit(1);
  }
}
