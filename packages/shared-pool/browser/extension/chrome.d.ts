// The little of chrome.* the test extension's own code calls (the package types what it uses itself).
declare namespace chrome {
  const runtime: import('../../src/extension/index.js').ChromeLike['runtime'] & {
    getContexts(filter: { contextTypes: string[] }): Promise<unknown[]>;
  };
  const offscreen: {
    createDocument(parameters: { url: string; reasons: string[]; justification: string }): Promise<void>;
    closeDocument(): Promise<void>;
    hasDocument(): Promise<boolean>;
  };
}
