/**
 * The part both browser checks share: open the check page, pass its `[check]`
 * lines and errors to the console, wait for `window.inklingChecks`, and turn
 * the results into the run's last line and exit code.
 */
import type { Browser } from 'playwright-core';
import type { CheckResult } from './checks.js';

export interface CheckPageOptions {
  /** Prefix for every line (time since start). */
  stamp: () => string;
  timeoutMs: number;
  pollingMs: number;
  /** Also pass the page's warnings on (WebLLM explains device trouble there). */
  warnings?: boolean;
}

/** Runs the check page at `url`; closes the browser. An error becomes a line and no results. */
export async function runCheckPage(browser: Browser, url: string, options: CheckPageOptions): Promise<CheckResult[]> {
  const { stamp } = options;
  try {
    const page = await browser.newPage();
    page.on('console', (message) => {
      const text = message.text();
      const shown = message.type() === 'error' || (options.warnings === true && message.type() === 'warning');
      if (text.startsWith('[check] ')) console.log(`${stamp()}  ${text.slice(8)}`);
      else if (shown) console.log(`${stamp()}  [browser ${message.type()}] ${text.slice(0, 300)}`);
    });
    page.on('pageerror', (error) => console.log(`${stamp()}  [page error] ${error.message}`));
    await page.goto(url);
    const handle = await page.waitForFunction(() => window.inklingChecks, undefined, {
      timeout: options.timeoutMs,
      polling: options.pollingMs,
    });
    const outcome = (await handle.jsonValue()) as { results: CheckResult[]; error?: string };
    if (outcome.error) console.log(`${stamp()}  the check page failed: ${outcome.error}`);
    return outcome.results;
  } catch (error) {
    console.log(`${stamp()}  gave up: ${String(error)}`);
    return [];
  } finally {
    await browser.close();
  }
}

/** Prints "N passed, M failed" and exits 0 only when there were results and all passed. */
export function exitWithResults(results: readonly CheckResult[], stamp: () => string): never {
  const passed = results.filter((r) => r.ok).length;
  console.log(`\n${passed} passed, ${results.length - passed} failed (${stamp().trim()} in all)`);
  process.exit(results.length > 0 && passed === results.length ? 0 : 1);
}
