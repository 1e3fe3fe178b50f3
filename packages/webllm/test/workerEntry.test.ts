// @vitest-environment happy-dom
import { InvalidOptionError } from '@inkling/scheduler';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('@inkling/webllm/worker', () => {
  it('refuses to serve an engine on a page: it says to import it from a worker’s file', async () => {
    expect(typeof document).toBe('object');
    const error = await import('../src/worker.js').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toMatch(/import it from a worker's file/);
  });

  it("serves on a worker's scope: it listens for the page's messages there", async () => {
    const listeners: Array<(event: { data: unknown }) => void> = [];
    const posted: unknown[] = [];
    vi.stubGlobal('document', undefined);
    vi.stubGlobal('addEventListener', (type: string, listener: (event: { data: unknown }) => void) => {
      if (type === 'message') listeners.push(listener);
    });
    vi.stubGlobal('postMessage', (message: unknown) => void posted.push(message));
    await import('../src/worker.js');
    expect(listeners).toHaveLength(1);
  });
});
