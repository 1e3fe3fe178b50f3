import { type ClientTestApi, clientTestApi } from './clientTestApi.js';

// The test extension's content script: the client test API, reached by the test through window
// messages (a content script lives in its own world, apart from the page's).
const api = clientTestApi();

// oxlint-disable-next-line unicorn/prefer-add-event-listener -- one listener, for the test's calls
addEventListener('message', (event: MessageEvent) => {
  const call = event.data as { to?: string; id?: number; cmd?: keyof ClientTestApi; args?: unknown[] };
  if (event.source !== window || call?.to !== 'inkling-content' || !call.cmd) return;
  const reply = (body: { result?: unknown; error?: string }) => window.postMessage({ from: 'inkling-content', id: call.id, ...body }, '*');
  Promise.resolve()
    .then(() => (api[call.cmd!] as (...args: unknown[]) => unknown)(...(call.args ?? [])))
    .then(
      (result) => reply({ result }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
});
document.documentElement.dataset.inklingContent = 'ready';
