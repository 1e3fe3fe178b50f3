import { execFileSync } from 'node:child_process';

/** Runs npm in `cwd` (installs come from the registry, or npm's cache on a re-run). */
export function npm(cwd: string, args: string[]): void {
  const started = performance.now();
  execFileSync('npm', args, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    },
  });
  console.log(`consumer: npm ${args.join(' ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
