// @vitest-environment node
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';

it('imports in Node and renders on the server without loading, submitting or touching navigator', async () => {
  let touched = 0;
  Object.defineProperty(globalThis, 'navigator', {
    configurable: true,
    get() {
      touched += 1;
      return undefined;
    },
  });
  const inkling = await import('../src/index.js');
  const { fakeEngines } = await import('@inkling/scheduler/testing');
  const createEngine = fakeEngines();
  const pool = new inkling.EnginePool({ createEngine });

  function Page() {
    const ghost = inkling.useGhostText({ session: 'notes', text: 'Hello' });
    const batch = inkling.useBatchTranslate({ task: 'page', items: ['Hi'], to: 'fr' });
    const load = inkling.useModelLoad();
    const completion = inkling.useCompletion();
    const chat = inkling.useChat();
    const vectors = inkling.useEmbeddings({ texts: ['a'] });
    return createElement('p', null, [load.status, ghost.status, batch.status, completion.status, chat.status, vectors.status].join(' '));
  }
  const html = renderToString(createElement(inkling.PoolProvider, { pool }, createElement(Page)));
  // Embeddings say `queued` as TanStack Query's optimistic result says fetching; the fetch starts on the client.
  expect(html).toBe('<p>idle idle idle idle idle queued</p>');
  expect(createEngine.builds.size).toBe(0);
  expect(pool.getSnapshot()).toMatchObject({ phase: 'idle', queued: 0, running: 0 });
  expect(touched).toBe(0);
  Reflect.deleteProperty(globalThis, 'navigator');
});
