import type { BrowserCommand } from 'vitest/node';

/**
 * A browser command of the suite: sets the test page's origin's real storage quota through the
 * DevTools protocol (`Storage.overrideQuotaForOrigin`), as a private window or a full disk sets
 * it; `null` gives the browser's own back. Chrome keeps reporting its made-up `estimate().quota`
 * (the usage plus gigabytes) meanwhile, while writes past the real quota fail with
 * `QuotaExceededError`: the case the room check must see through.
 */
export const storageQuota: BrowserCommand<[bytes: number | null]> = async (ctx, bytes) => {
  if (ctx.provider.name !== 'playwright') throw new Error('storageQuota needs the playwright provider');
  const { context, page } = ctx;
  // The override lasts as long as the DevTools session that set it: one per page, kept open.
  let cdp = sessions.get(page);
  if (cdp === undefined) {
    cdp = await context.newCDPSession(page);
    sessions.set(page, cdp);
  }
  await cdp.send('Storage.overrideQuotaForOrigin', {
    origin: new URL(page.url()).origin,
    ...(bytes === null ? {} : { quotaSize: bytes }),
  });
};

const sessions = new WeakMap<
  object,
  { send(method: 'Storage.overrideQuotaForOrigin', params: { origin: string; quotaSize?: number }): Promise<unknown> }
>();

declare module 'vitest/browser' {
  interface BrowserCommands {
    storageQuota: (bytes: number | null) => Promise<void>;
  }
}
