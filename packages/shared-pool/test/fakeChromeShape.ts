/**
 * The calls of `chrome.*` the extension entry makes (and `fakeExtension`
 * fakes), by context: the browser suite checks each exists on the real
 * namespace there, so the fake cannot drift from Chrome unnoticed.
 */
export const CHROME_CALLS = {
  everywhere: [
    'runtime.connect',
    'runtime.sendMessage',
    'runtime.getURL',
    'runtime.onConnect.addListener',
    'runtime.onMessage.addListener',
    'runtime.onMessage.removeListener',
  ],
  background: ['runtime.getContexts', 'offscreen.createDocument', 'offscreen.closeDocument'],
} as const;

/** The paths of `calls` that are not functions on `root`. */
export function missingCalls(root: unknown, calls: readonly string[]): string[] {
  return calls.filter((path) => {
    const found = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], root);
    return typeof found !== 'function';
  });
}
