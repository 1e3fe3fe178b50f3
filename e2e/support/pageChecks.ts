import { appendFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const require = createRequire(import.meta.url);

/** The widths the demo is checked at: a phone, a tablet, a laptop. */
export const WIDTHS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
] as const;

/**
 * Starts counting layout shifts (a `layout-shift` PerformanceObserver) from
 * the page's first moment, on every page of `context`. Read the total with
 * `layoutShift` or reset it with `resetLayoutShift`.
 */
export async function watchLayoutShift(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const state = { total: 0, shifts: [] as Array<{ value: number; at: number; nodes: string[] }> };
    (window as unknown as { inklingShift: typeof state }).inklingShift = state;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }
      >) {
        // Shifts right after a person's input are theirs to expect; the metric leaves them out too.
        if (entry.hadRecentInput) continue;
        state.total += entry.value;
        const nodes = (entry.sources ?? []).map((source) => {
          const element = source.node as Element | undefined;
          return element?.className ? `${element.tagName}.${String(element.className)}` : (element?.nodeName ?? '?');
        });
        state.shifts.push({ value: entry.value, at: Math.round(entry.startTime), nodes });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift counted so far, and the shifts that made it (for the failure message). */
export async function layoutShift(page: Page): Promise<{ total: number; shifts: unknown[] }> {
  // Let the observer deliver what the last frames produced.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => (window as unknown as { inklingShift: { total: number; shifts: unknown[] } }).inklingShift);
}

/** Notes a measured layout shift in e2e/artifacts/layout-shift.tsv, for people to read. */
export function noteLayoutShift(name: string, total: number): void {
  const folder = new URL('../artifacts/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  appendFileSync(new URL('layout-shift.tsv', folder), `${new Date().toISOString()}\t${name}\t${total.toFixed(4)}\n`);
}

export async function resetLayoutShift(page: Page): Promise<void> {
  await layoutShift(page);
  await page.evaluate(() => {
    const state = (window as unknown as { inklingShift: { total: number; shifts: unknown[] } }).inklingShift;
    state.total = 0;
    state.shifts = [];
  });
}

/** How far the page scrolls sideways, and any visible element whose right edge runs past the viewport. */
export async function sideways(page: Page): Promise<{ scrollWidth: number; viewport: number; overflowing: string[] }> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const overflowing = [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        // Content inside a scroll container of its own (the inspector's tables) is not the page's.
        for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
          if (/(auto|scroll|hidden)/.test(getComputedStyle(parent).overflowX)) return false;
        }
        return box.right > viewport + 0.5;
      })
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className)}`);
    return { scrollWidth: document.documentElement.scrollWidth, viewport, overflowing };
  });
}

/** Pairs of the given elements whose boxes overlap (by more than a pixel). */
export async function overlaps(page: Page, selectors: readonly string[]): Promise<string[]> {
  return page.evaluate((names) => {
    const boxes = names.flatMap((name) =>
      [...document.querySelectorAll(name)].map((element) => ({ name, box: element.getBoundingClientRect() })),
    );
    const found: string[] = [];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (x > 1 && y > 1 && a.name !== b.name) found.push(`${a.name} × ${b.name}`);
      }
    }
    return found;
  }, selectors);
}

/** Runs axe-core on the page; returns each violation as "rule: target". */
export async function axeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
  });
  return violations;
}

/** Every request the page makes, by URL, from now on. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Console errors and failed loads (a missing favicon shows up here). */
export function recordConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
