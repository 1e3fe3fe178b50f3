import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where screenshots go: e2e/artifacts (ignored by git), for people to look at. */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
