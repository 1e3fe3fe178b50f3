// `pnpm dev`: starts the demo app once it exists; until then says so plainly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../apps/demo/package.json', import.meta.url))) {
  console.log('The demo app (apps/demo) arrives with the components issue. Meanwhile: `pnpm test`, `pnpm bench:scheduler`.');
  process.exit(0);
}
const result = spawnSync('pnpm', ['--filter', '@inkling/demo', 'dev'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
