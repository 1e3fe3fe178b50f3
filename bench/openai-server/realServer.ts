/**
 * Drives a real OpenAI-compatible server through the built @inkling/openai:
 * checks the chunk shape and server-side cancellation, then runs a batch
 * translation at several `concurrency` values and measures items/s and
 * ghost-text first-token latency with and without the batch running.
 * A benchmark, not a test. Bundle it with esbuild (see README) and run:
 *
 *   node realServer.mjs --baseURL http://127.0.0.1:8080/v1 --model tiny \
 *     --concurrency 1,4,16 --items 200 --slots http://127.0.0.1:8080/slots
 */
import { type ChatCompletionChunk, EnginePool, type JobResult, type JobSpec } from '@inkling/scheduler';
import { openaiEngines } from '@inkling/openai';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const baseURL = args.get('baseURL') ?? 'http://127.0.0.1:8080/v1';
const model = args.get('model') ?? 'tiny';
const items = Number(args.get('items') ?? 200);
const levels = (args.get('concurrency') ?? '1,4,16').split(',').map(Number);
const slotsURL = args.get('slots');
const batchTokens = Number(args.get('batchTokens') ?? 32);
const ghostTokens = Number(args.get('ghostTokens') ?? 8);
// A person typing: one ghost-text request per debounce, not back to back.
const ghostGapMs = Number(args.get('ghostGapMs') ?? 150);
// llama.cpp's server takes it; a random model would otherwise stop at a random EOS.
const extra = args.get('ignoreEos') === 'no' ? {} : { ignore_eos: true };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...parts: unknown[]) => process.stdout.write(`${parts.join(' ')}\n`);

function pool(concurrency: number): EnginePool {
  return new EnginePool({ createEngine: openaiEngines({ baseURL, model, concurrency }), size: 1 });
}

function chat(content: string, maxTokens: number, spec: Partial<JobSpec> = {}): JobSpec {
  return {
    ...spec,
    params: { messages: [{ role: 'user', content }], max_tokens: maxTokens, temperature: 0, ...extra },
  } as JobSpec;
}

const round = (x: number) => Math.round(x * 10) / 10;

function stats(values: number[]) {
  const s = values.toSorted((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return { n: s.length, median: round(at(0.5)), p90: round(at(0.9)), max: round(s.at(-1) ?? Number.NaN) };
}

const firstToken = (r: JobResult) => (r.firstTokenAt ?? Number.NaN) - r.submittedAt;

async function busySlots(): Promise<number | undefined> {
  if (!slotsURL) return undefined;
  try {
    const slots = (await (await fetch(slotsURL)).json()) as Array<{ is_processing?: boolean }>;
    return slots.filter((s) => s.is_processing).length;
  } catch {
    return undefined;
  }
}

/** The chunk shape and the server's usage, on a real server. */
async function checkShape(p: EnginePool) {
  const seen: ChatCompletionChunk[] = [];
  const result = await p.submit({ ...chat('Say hello.', 6), onChunk: (c) => seen.push(c) } as JobSpec);
  const kinds = seen.map((c) =>
    c.choices.length === 0 ? 'usage' : c.choices[0]?.finish_reason ? `finish:${c.choices[0].finish_reason}` : 'text',
  );
  return { status: result.status, text: result.text, usage: result.usage, finishReason: result.finishReason, kinds: kinds.join(',') };
}

/** Cancels a long generation after a few tokens; the server's slot must go idle at once. */
async function checkCancel(p: EnginePool) {
  const job = p.submit(chat('Write a very long story.', 4000, { id: 'long' }));
  const live = () => p.getSnapshot().jobs.find((j) => j.id === 'long');
  // Wait for a few tokens, or for the job to end on its own.
  while (live() && (live()?.tokens ?? 0) < 5) await sleep(2);
  const busyBefore = await busySlots();
  const cancelledAt = performance.now();
  p.cancel('long');
  const result = await job;
  const resolvedMs = performance.now() - cancelledAt;
  let idleMs: number | undefined;
  const polls = slotsURL === undefined ? 0 : 200;
  for (let i = 0; i < polls; i += 1) {
    if ((await busySlots()) === 0) {
      idleMs = performance.now() - cancelledAt;
      break;
    }
    await sleep(5);
  }
  return {
    status: result.status,
    tokensBeforeCancel: result.text.length > 0,
    busyBefore,
    resolvedMs: Math.round(resolvedMs),
    serverIdleAfterMs: idleMs === undefined ? undefined : Math.round(idleMs),
  };
}

async function ghostLoop(p: EnginePool, keepGoing: () => boolean, max = Number.POSITIVE_INFINITY): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; keepGoing() && i < max; i += 1) {
    const r = await p.submit(chat(`Continue: "Dear team, thank you for ${i}`, ghostTokens, { session: 'ghost', priority: 'interactive' }));
    if (r.status === 'done') latencies.push(firstToken(r));
    await sleep(ghostGapMs);
  }
  return latencies;
}

async function runLevel(concurrency: number) {
  const p = pool(concurrency);
  await p.load();
  await Promise.all(Array.from({ length: Math.min(concurrency, 4) }, () => p.submit(chat('warm up', 4))));
  const baseline = await ghostLoop(p, () => true, 20);

  let running = true;
  let peakRunning = 0;
  let preempted = 0;
  let tokens = 0;
  const failed: string[] = [];
  const watch = setInterval(() => (peakRunning = Math.max(peakRunning, p.getSnapshot().running)), 5);
  const ghosts = ghostLoop(p, () => running);
  const start = performance.now();
  // Like useBatchTranslate: one task, normal priority, preemptible; preempted items go back in.
  const translate = async (i: number): Promise<void> => {
    for (;;) {
      const r = await p.submit(
        chat(`Translate into French: "Sentence number ${i} of the page."`, batchTokens, { task: 'translate', preemptible: true }),
      );
      if (r.status === 'preempted') {
        preempted += 1;
        continue;
      }
      if (r.status !== 'done') {
        failed.push(`item ${i}: ${r.error?.name ?? r.status}: ${r.error?.message.slice(0, 120) ?? ''}`);
        return;
      }
      tokens += (r.usage as { completion_tokens?: number } | undefined)?.completion_tokens ?? 0;
      return;
    }
  };
  await Promise.all(Array.from({ length: items }, (_, i) => translate(i)));
  const seconds = (performance.now() - start) / 1000;
  running = false;
  const during = await ghosts;
  clearInterval(watch);
  await p.unload();
  return {
    concurrency,
    itemsPerSecond: Math.round((items / seconds) * 10) / 10,
    completionTokensPerSecond: Math.round(tokens / seconds),
    seconds: Math.round(seconds * 100) / 100,
    peakRunningJobs: peakRunning,
    preemptedAndResubmitted: preempted,
    failed: failed.length,
    firstFailures: failed.slice(0, 3),
    ghostFirstTokenMs: { baselineNoBatch: stats(baseline), duringBatch: stats(during) },
  };
}

/** What the real server's failures turn into. */
async function checkErrors(p: EnginePool) {
  const bad = await p.submit({ params: { messages: [{ role: 'user', content: 'x' }], temperature: 'hot' as unknown as number } });
  const down = new EnginePool({ createEngine: openaiEngines({ baseURL: 'http://127.0.0.1:9/v1', model }), size: 1 });
  const loadError = await down.load().then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  return {
    badParam: `${bad.error?.name}: ${bad.error?.message.slice(0, 220)}`,
    unreachable: `${loadError?.name}: ${loadError?.message.slice(0, 120)}`,
  };
}

const checks = pool(4);
await checks.load();
const shape = await checkShape(checks);
log('shape', JSON.stringify(shape));
const cancel = await checkCancel(checks);
log('cancel', JSON.stringify(cancel));
const errors = await checkErrors(checks);
log('errors', JSON.stringify(errors));
await checks.unload();

const results = [];
for (const level of levels) {
  const r = await runLevel(level);
  log('level', JSON.stringify(r));
  results.push(r);
}
log('RESULT', JSON.stringify({ baseURL, model, items, batchTokens, ghostTokens, ghostGapMs, shape, cancel, errors, results }));
