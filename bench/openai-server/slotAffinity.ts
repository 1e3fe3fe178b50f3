/**
 * Two editors typing at once against llama.cpp's real server with two slots:
 * does each editor's ghost text keep hitting the slot that holds its prompt?
 * A benchmark, not a test. Start the server, then run:
 *
 *   llama-server -m tiny.gguf -a tiny --port 8080 --parallel 2 -c 8192 &
 *   npx tsx --conditions=@inkling/source bench/openai-server/slotAffinity.ts \
 *     --baseURL http://127.0.0.1:8080/v1 --model tiny --keystrokes 40 --reps 5
 *
 * Per repetition, in alternating order, four runs on fresh texts (so no run
 * finds another's prompt in a cache):
 * - `alone-a`, `alone-b`: one editor typing by itself, the reference ("as on
 *   one slot"), twice, to show the noise between identical runs;
 * - `today`: two editors at once, no hints (the server picks a slot);
 * - `pinned`: two editors at once, `slots: 'auto'` (`id_slot` per session,
 *   `cache_prompt: true`).
 * Each keystroke appends a character and submits an interactive ghost-text
 * job for the editor's session (`maxTokens`, default 2), superseding the one
 * before, every `gapMs` to twice that (default 250 ms, seeded). Reported per finished keystroke: prompt tokens the server had to
 * read (`prompt_tokens - usage.cachedTokens`, from `timings.cache_n` /
 * `prompt_tokens_details.cached_tokens`), the share it found cached, and the
 * first-token latency; as min/median/max over repetitions, and as ratios to
 * `alone-a` from the same repetition.
 */
import { EnginePool, type JobResult } from '@inkling/scheduler';
import { fimParams, openaiEngines } from '@inkling/openai';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const baseURL = args.get('baseURL') ?? 'http://127.0.0.1:8080/v1';
const model = args.get('model') ?? 'tiny';
const keystrokes = Number(args.get('keystrokes') ?? 40);
const reps = Number(args.get('reps') ?? 5);
const docWords = Number(args.get('words') ?? 120);
const maxTokens = Number(args.get('maxTokens') ?? 2);
// The pause between keystrokes, from gapMs to twice it (seeded): long enough on a busy CPU for most answers to finish.
const gapMs = Number(args.get('gapMs') ?? 250);

const SYSTEM =
  'You are the autocomplete of a text editor. You get the text before the cursor, which ends where the cursor is. ' +
  'Reply with only the text to insert at the cursor: a few words, at most the rest of the sentence.';

/** A seeded generator (one stream per run, so runs differ only in what they measure). */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const LETTERS = 'etaoinshrdlucmfwypvbgkqjxz';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function text(random: () => number, words: number): string {
  return Array.from({ length: words }, () =>
    Array.from({ length: 2 + Math.floor(random() * 6) }, () => LETTERS[Math.floor(random() * 26)]).join(''),
  ).join(' ');
}

interface Keystroke {
  prompt: number;
  cached: number;
  firstTokenMs: number;
}

type Condition = 'alone-a' | 'alone-b' | 'today' | 'pinned';

async function run(condition: Condition, seed: number): Promise<Keystroke[]> {
  const pinned = condition === 'pinned';
  const pool = new EnginePool({
    createEngine: openaiEngines({ baseURL, model, concurrency: 4, ...(pinned ? { slots: 'auto' as const } : {}) }),
    size: 1,
  });
  await pool.load();
  const editors = condition === 'today' || condition === 'pinned' ? ['editor-1', 'editor-2'] : ['editor-1'];
  const done: Keystroke[] = [];
  const typeIn = async (session: string, index: number) => {
    const random = seeded(seed * 31 + index);
    let doc = text(random, docWords);
    const jobs: Promise<JobResult>[] = [];
    for (let k = 0; k < keystrokes; k += 1) {
      doc += LETTERS[Math.floor(random() * 26)];
      const job = pool.submit({
        session,
        priority: 'interactive',
        params: {
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: doc },
          ],
          max_tokens: maxTokens,
          temperature: 0,
          ignore_eos: true,
        },
      });
      jobs.push(job);
      void job.then((r) => {
        if (r.status !== 'done' || !r.usage || !('completion_tokens' in r.usage)) return;
        done.push({
          prompt: r.usage.prompt_tokens,
          cached: r.usage.cachedTokens ?? 0,
          firstTokenMs: (r.firstTokenAt ?? Number.NaN) - r.submittedAt,
        });
      });
      await sleep(gapMs + Math.floor(random() * gapMs));
    }
    await Promise.all(jobs);
  };
  await Promise.all(editors.map((session, index) => typeIn(session, index)));
  await pool.unload();
  return done;
}

const median = (values: number[]) => {
  const s = values.toSorted((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const spread = (values: number[]) => ({ min: round(Math.min(...values)), median: round(median(values)), max: round(Math.max(...values)) });

interface Summary {
  keystrokes: number;
  /** Prompt tokens read again per keystroke (median). */
  prefilled: number;
  /** Share of prompt tokens found cached, over the run. */
  cachedShare: number;
  firstTokenMs: number;
}

function summarise(keys: Keystroke[]): Summary {
  const prompt = keys.reduce((n, k) => n + k.prompt, 0);
  const cached = keys.reduce((n, k) => n + k.cached, 0);
  return {
    keystrokes: keys.length,
    prefilled: median(keys.map((k) => k.prompt - k.cached)),
    cachedShare: prompt === 0 ? Number.NaN : cached / prompt,
    firstTokenMs: median(keys.map((k) => k.firstTokenMs)),
  };
}

async function main() {
  // What the engine's `slots: 'auto'` reads.
  const props = (await (await fetch(baseURL.replace(/\/v1$/, '/props'))).json()) as { total_slots?: number; build_info?: string };
  const slotsSeen = props.total_slots;
  // The engine's reading of the real server: cachedTokens on a repeated chat prompt, and /infill's own stream
  // (a model made with makeTinyGguf.py --fim has the FIM tokens /infill needs).
  const shapePool = new EnginePool({ createEngine: openaiEngines({ baseURL, model, slots: 'auto', fim: 'infill' }), size: 1 });
  await shapePool.load();
  const chat = {
    session: 'shape',
    params: { messages: [{ role: 'user' as const, content: text(seeded(5), 60) }], max_tokens: 4, ignore_eos: true },
  };
  const first = await shapePool.submit(chat);
  const again = await shapePool.submit(chat);
  const infill = await shapePool.submit({
    session: 'shape-fim',
    params: { ...fimParams({ before: text(seeded(6), 40), after: text(seeded(7), 20), maxTokens: 4 }), ignore_eos: true },
  });
  await shapePool.unload();
  const shape = {
    chat: { status: first.status, usage: first.usage },
    chatAgain: { status: again.status, usage: again.usage },
    infill: {
      status: infill.status,
      text: infill.text,
      finishReason: infill.finishReason,
      usage: infill.usage,
      error: infill.error?.message,
    },
  };
  process.stdout.write(`shape ${JSON.stringify(shape)}\n`);
  const orders: Condition[][] = [
    ['alone-a', 'today', 'pinned', 'alone-b'],
    ['alone-b', 'pinned', 'today', 'alone-a'],
  ];
  const byRep: Array<Record<Condition, Summary>> = [];
  for (let rep = 0; rep < reps; rep += 1) {
    const row = {} as Record<Condition, Summary>;
    for (const condition of orders[rep % 2]!) {
      row[condition] = summarise(await run(condition, 1000 * (rep + 1) + orders[0]!.indexOf(condition)));
      process.stdout.write(`rep ${rep + 1} ${condition.padEnd(7)} ${JSON.stringify(row[condition])}\n`);
    }
    byRep.push(row);
  }
  const conditions: Condition[] = ['alone-a', 'alone-b', 'today', 'pinned'];
  const figures = Object.fromEntries(
    conditions.map((c) => [
      c,
      {
        prefilledPerKeystroke: spread(byRep.map((r) => r[c].prefilled)),
        cachedShare: spread(byRep.map((r) => r[c].cachedShare)),
        firstTokenMs: spread(byRep.map((r) => r[c].firstTokenMs)),
        keystrokesFinished: spread(byRep.map((r) => r[c].keystrokes)),
        // Ratios to the first one-editor run of the same repetition.
        prefilledVsAlone: spread(byRep.map((r) => r[c].prefilled / r['alone-a'].prefilled)),
        firstTokenVsAlone: spread(byRep.map((r) => r[c].firstTokenMs / r['alone-a'].firstTokenMs)),
      },
    ]),
  );
  const out = { baseURL, model, keystrokes, reps, docWords, slotsSeen, buildInfo: props.build_info, shape, figures };
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}

await main();
