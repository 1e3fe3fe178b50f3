/**
 * The engine's trust rules against llama.cpp's real server: redirects, the
 * answer's bounds, error bodies, and the speculative request's slot. A
 * check, not a test. Start the server with two slots, then run:
 *
 *   llama-server -m tiny.gguf -a tiny --port 8080 --parallel 2 -c 8192 --slots &
 *   npx esbuild bench/openai-server/trustServer.ts --bundle --platform=node --format=esm \
 *     --conditions=@inkling/source --outfile=trustServer.mjs
 *   node trustServer.mjs --baseURL http://127.0.0.1:8080/v1 --model tiny
 *
 * Prints one JSON line per check, each with what the same run shows without
 * the rule where there is such a baseline (a plain `fetch` that follows the
 * redirect; a speculation in a session of its own).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnginePool, type JobResult } from '@inkling/scheduler';
import { speculativeSession } from '@inkling/scheduler/engine';
import { openaiEngines } from '@inkling/openai';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const baseURL = args.get('baseURL') ?? 'http://127.0.0.1:8080/v1';
const model = args.get('model') ?? 'tiny';
const root = baseURL.replace(/\/v1$/, '');
const KEY = 'sk-trust-check-0123456789abcdef';

const report = (check: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ check, ...fields }));
const ask = (content: string, extra: Record<string, unknown> = {}) => ({ messages: [{ role: 'user' as const, content }], ...extra });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const summary = (r: JobResult) => ({
  status: r.status,
  finishReason: r.finishReason,
  chars: r.text.length,
  usage:
    r.usage && 'completion_tokens' in r.usage
      ? { completion: r.usage.completion_tokens, prompt: r.usage.prompt_tokens, cached: r.usage.cachedTokens }
      : undefined,
  error: r.error ? { name: r.error.name, message: r.error.message.slice(0, 240) } : undefined,
});

async function pool(options: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  const made = new EnginePool({ createEngine: openaiEngines({ baseURL, model, maxRetries: 0, ...options }), size: 1 });
  await made.load();
  return made;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => void }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function slotsBusy(): Promise<boolean[]> {
  const states = (await (await fetch(`${root}/slots`)).json()) as Array<{ is_processing?: boolean }>;
  return states.map((s) => s.is_processing === true);
}

/** A 307 to another origin: the recorder stands for whoever the redirect names. */
async function redirects(): Promise<void> {
  const seen: Array<Record<string, unknown>> = [];
  const recorder = await listen((req, res) => {
    seen.push({ path: req.url, apiKey: req.headers['x-api-key'], authorization: req.headers.authorization });
    res.writeHead(404).end();
  });
  const front = await listen((req, res) => {
    // The models probe goes to the real server's answer; every job is redirected.
    if (req.url?.endsWith('/models')) {
      void fetch(`${baseURL}/models`).then(async (r) =>
        res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()),
      );
      return;
    }
    res.writeHead(307, { Location: `${recorder.url}${req.url}` }).end();
  });
  // Baseline, same run: a plain fetch follows it and hands the header over.
  await fetch(`${front.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-api-key': KEY }, body: '{}' }).catch(() => undefined);
  const followed = seen.splice(0);
  const engine = await pool({ baseURL: `${front.url}/v1`, apiKey: KEY, headers: { 'x-api-key': KEY } });
  const result = await engine.submit({ params: ask('Hello', { max_tokens: 4 }) });
  report('redirect', { plainFetch: followed, engine: summary(result), reachedOtherOrigin: seen });
  await engine.unload();
  front.close();
  recorder.close();
}

/** llama.cpp honours max_tokens; the client's own bounds never cut an honest answer short, and close a long one. */
async function bounds(): Promise<void> {
  const honest = await pool();
  report('max_tokens 8, honoured by the server', summary(await honest.submit({ params: ask('Tell me a story.', { max_tokens: 8 }) })));
  await honest.unload();
  for (const [name, option] of [
    ['maxResponseMs 300 on a 4000-token answer', { maxResponseMs: 300 }],
    ['maxResponseBytes 4000 on a 4000-token answer', { maxResponseBytes: 4000 }],
  ] as const) {
    const bounded = await pool(option);
    const started = performance.now();
    const result = await bounded.submit({ params: ask('Tell me a long story.', { max_tokens: 4000, ignore_eos: true }) });
    const endedMs = Math.round(performance.now() - started);
    // The server stops generating once the connection is closed.
    let idleAfterMs: number | undefined;
    for (let waited = 0; waited <= 3000; waited += 50) {
      if (!(await slotsBusy()).some(Boolean)) {
        idleAfterMs = waited;
        break;
      }
      await sleep(50);
    }
    const next = await bounded.submit({ params: ask('Again.', { max_tokens: 4 }) });
    report(name, { result: summary(result), endedMs, serverIdleWithinMs: idleAfterMs, nextJob: summary(next) });
    await bounded.unload();
  }
  const refused = await pool();
  // Longer than a slot's context (-c 8192 over 2 slots): llama.cpp answers 400 with its reason.
  const bad = await refused.submit({ params: ask(words(5, 4000), { max_tokens: 4 }) });
  report('an error status from the server, read capped', summary(bad));
  await refused.unload();
}

/** A made-up text, the same for the same seed. */
const words = (seed: number, n: number) =>
  Array.from({ length: n }, (_, i) => 'etaoinshrdlucmfwypvbgkqjxz'.slice((i * seed) % 20, ((i * seed) % 20) + 3 + (i % 4))).join(' ');

/** Two editors and their speculations on two slots: which slot warms which prompt. */
async function slots(): Promise<void> {
  for (const [label, speculation] of [
    ['speculation in its own session (as before)', (s: string) => `${s}~ahead`],
    ['speculation as speculativeSession (now)', speculativeSession],
  ] as const) {
    const sent: Array<{ session: string; id_slot: unknown; key: unknown }> = [];
    const engine = await pool({
      slots: 'auto',
      sessionAffinity: { promptCacheKey: true },
      fetch: (input, init) => {
        if (typeof init.body === 'string' && input.endsWith('/chat/completions')) {
          const body = JSON.parse(init.body) as Record<string, unknown>;
          sent.push({
            session: String((body.messages as Array<{ content: string }>)[0]!.content.slice(0, 6)),
            id_slot: body.id_slot,
            key: body.prompt_cache_key,
          });
        }
        return fetch(input, init);
      },
    });
    const a = `A: ${words(3, 200)}`;
    const b = `B: ${words(7, 200)}`;
    const run = (session: string, content: string, priority: 'interactive' | 'low') =>
      engine.submit({ session, priority, preemptible: priority === 'low', params: ask(content, { max_tokens: 2 }) });
    await run('editor-a', a, 'interactive');
    await run(speculation('editor-a'), `${a} next`, 'low');
    await run('editor-b', b, 'interactive');
    await run(speculation('editor-b'), `${b} next`, 'low');
    const againA = await run('editor-a', `${a} more`, 'interactive');
    const againB = await run('editor-b', `${b} more`, 'interactive');
    report(label, { sent, editorAAgain: summary(againA).usage, editorBAgain: summary(againB).usage });
    await engine.unload();
    // Each run on fresh slots: erase what the last one left.
    for (const id of [0, 1]) await fetch(`${root}/slots/${id}?action=erase`, { method: 'POST' }).catch(() => undefined);
  }
}

await redirects();
await bounds();
await slots();
