import type { BrowserCommand } from 'vitest/node';
import type { PageResult } from './pages/load.js';

/** Read in each tab: what its load ended with (set by pages/load.ts), or nothing yet. */
const result = () => (globalThis as { inklingResult?: PageResult }).inklingResult;

/** One tab: its page (`pages/<page>.html`, default `load`: wllama), the model it loads, and how many times it is reloaded after its first load ended. */
export interface PagePlan {
  page?: 'load' | 'webllm';
  model: string;
  /** For `webllm`: the model record's URL. */
  url?: string;
  reloads: number;
}

/**
 * A browser command of the suite: opens one new page (tab) per plan in the test's own browser
 * context (so the origin's storage, OPFS included, and its Web Locks are the test's), all at
 * once, each loading `pages/<page>.html?model=`; after each load ends the page is reloaded
 * (`page.reload()`, a real reload: nothing but the origin's storage survives it) `reloads` times.
 * Resolves with each page's results in order, then closes the pages.
 */
export const modelPages: BrowserCommand<[plans: PagePlan[]]> = async (ctx, plans) => {
  if (ctx.provider.name !== 'playwright') throw new Error('modelPages needs the playwright provider');
  const { context, page } = ctx;
  const origin = new URL(page.url()).origin;
  return Promise.all(
    plans.map(async (plan) => {
      const tab = await context.newPage();
      try {
        const results: PageResult[] = [];
        const query = new URLSearchParams({ model: plan.model, ...(plan.url ? { url: plan.url } : {}) });
        await tab.goto(`${origin}/pages/${plan.page ?? 'load'}.html?${query}`);
        for (let round = 0; round <= plan.reloads; round += 1) {
          if (round > 0) await tab.reload();
          results.push((await (await tab.waitForFunction(result, undefined, { timeout: 25_000 })).jsonValue()) as PageResult);
        }
        return results;
      } finally {
        await tab.close();
      }
    }),
  );
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    modelPages: (plans: PagePlan[]) => Promise<PageResult[][]>;
  }
}
