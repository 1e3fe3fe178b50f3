/**
 * `lanesBench`'s `grammar` part (issue #36): JSON-schema jobs on the lanes,
 * each row under its own xgrammar matcher, in this thread on one loaded
 * engine (random weights, greedy):
 * - check: K JSON-schema jobs at once beside P plain jobs: every output
 *   parses and matches the schema; each JSON job's text against the same job
 *   alone on the lanes, and against WebLLM's own one-sequence JSON path
 *   (xgrammar 0.1.0 inlined in 0.2.79, the same compile settings);
 * - throughput: K JSON-schema jobs at once on the lanes against the same K
 *   one after another on WebLLM's one-sequence path (how they ran before),
 *   total completion tokens/s, repetitions alternating, and the one-sequence
 *   path twice per repetition as an A/A control.
 *
 * Environment: LANES_GRAMMAR_JOBS (K, 4; 2 with BENCH_SMOKE=1),
 * LANES_GRAMMAR_PLAIN (P, 2; 1 smoke), LANES_GRAMMAR_REPS (5; 1 smoke; 0: the check alone),
 * LANES_GRAMMAR_TOKENS (the plain jobs' tokens, 16; 2 smoke). BENCH_SMOKE=1
 * also asks for a one-field object (about 8 tokens) instead of three fields.
 */
import { startLanes } from '../../../../packages/webllm/src/worker/laneEngine.js';
import { startGrammars } from '../../../../packages/webllm/src/worker/laneGrammar.js';
import { loadXGrammar } from '../../../../packages/webllm/src/worker/loadXGrammar.js';
import { CHAT_MODEL } from '../setup.js';
import { env, f, median, out, say, smoke } from './benchConfig.js';

const K = Number(env.LANES_GRAMMAR_JOBS ?? (smoke ? 2 : 4));
const P = Number(env.LANES_GRAMMAR_PLAIN ?? (smoke ? 1 : 2));
const REPS = Number(env.LANES_GRAMMAR_REPS ?? (smoke ? 1 : 5));
const PLAIN_TOKENS = Number(env.LANES_GRAMMAR_TOKENS ?? (smoke ? 2 : 16));

/** Enums and a boolean: an object a random-weights model always finishes (no free string to spin in). */
const SCHEMA = smoke
  ? { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false }
  : {
      type: 'object',
      properties: {
        mood: { enum: ['calm', 'busy', 'late'] },
        ok: { type: 'boolean' },
        count: { enum: [0, 1, 2, 3] },
      },
      required: ['mood', 'ok', 'count'],
      additionalProperties: false,
    };
const MAX_TOKENS = 96;

/** Whether `value` is an object of `SCHEMA` (its own small check: enums, a boolean, no other key). */
function matches(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(SCHEMA.properties);
  if (Object.keys(v).length !== keys.length || keys.some((k) => !(k in v))) return false;
  return Object.entries(SCHEMA.properties).every(([k, rule]) =>
    'enum' in rule ? (rule.enum as unknown[]).includes(v[k]) : typeof v[k] === 'boolean',
  );
}
function valid(text: string): boolean {
  try {
    return matches(JSON.parse(text));
  } catch {
    return false;
  }
}

const words = ['report', 'the', 'state', 'of', 'the', 'build', 'as', 'json', 'now', 'please'];
const promptOf = (seed: number) => Array.from({ length: 12 + seed }, (_, i) => words[(i * (seed + 3)) % words.length]).join(' ');
const jsonAsk = (seed: number) => ({
  messages: [{ role: 'user' as const, content: promptOf(seed) }],
  temperature: 0,
  max_tokens: MAX_TOKENS,
  response_format: { type: 'json_schema' as const, json_schema: { name: 'state', schema: SCHEMA } },
});
const plainAsk = (seed: number) => ({
  messages: [{ role: 'user' as const, content: `plain ${promptOf(seed + 7)}` }],
  temperature: 0,
  max_tokens: PLAIN_TOKENS,
});

const mmm = (xs: number[]) => `${f(Math.min(...xs))} / ${f(median(xs))} / ${f(Math.max(...xs))}`;

type Lanes = ReturnType<typeof startLanes>;
interface WebLLMChat {
  chat: { completions: { create(request: never): Promise<unknown> } };
}

/** One job to its end on the lanes: its text and completion tokens. */
async function onLane(lanes: Lanes, ask: object): Promise<{ text: string; tokens: number }> {
  const stream = lanes.open({ ...ask, stream: true, stream_options: { include_usage: true } } as never);
  let text = '';
  let tokens = 0;
  for (let step = await stream.next(); !step.done; step = await stream.next()) {
    text += step.value.choices[0]?.delta.content ?? '';
    tokens = step.value.usage?.completion_tokens ?? tokens;
  }
  return { text, tokens };
}

/** One job on WebLLM's own path (`json_object` + schema string, as the worker sends it there). */
async function onWebLLM(engine: WebLLMChat, ask: ReturnType<typeof jsonAsk>): Promise<{ text: string; tokens: number }> {
  const { response_format: format, ...rest } = ask;
  const reply = (await engine.chat.completions.create({
    ...rest,
    response_format: { type: 'json_object', schema: JSON.stringify(format.json_schema.schema) },
  } as never)) as { choices: Array<{ message: { content: string } }>; usage?: { completion_tokens?: number } };
  return { text: reply.choices[0]?.message.content ?? '', tokens: reply.usage?.completion_tokens ?? 0 };
}

/** Runs the part on the engine loaded in this thread. */
export async function grammarPart(engine: object, pipeline: unknown): Promise<void> {
  const setup = performance.now();
  const grammars = await startGrammars(loadXGrammar, pipeline as never);
  const setupMs = performance.now() - setup;
  if (!grammars.active) throw new Error(`xgrammar did not start: ${grammars.reason}`);
  // The first constrained job reads the vocabulary (tokenizer info, compiler) and compiles its schema; later ones find it compiled.
  const first = performance.now();
  const warm = grammars.forJob(jsonAsk(0) as never)!;
  await warm.prepared;
  warm.dispose();
  const firstMs = performance.now() - first;
  const lanes = startLanes(pipeline, K + P + 1, { model: CHAT_MODEL, prefixReuse: false, grammars });
  if (!lanes.active) throw new Error(`lanes did not start: ${lanes.reason}`);
  say(
    `grammar: xgrammar loaded in ${f(setupMs, 0)} ms (at engine load); the first schema's job waited ${f(firstMs, 0)} ms (vocabulary read once per engine, schema compiled once); ${K} JSON-schema jobs beside ${P} plain`,
  );
  const chat = engine as WebLLMChat;

  const jsonAsks = Array.from({ length: K }, (_, s) => jsonAsk(s));
  const alone: Array<{ text: string; tokens: number }> = [];
  for (const ask of jsonAsks) alone.push(await onLane(lanes, ask));
  say(`grammar: ${K} JSON-schema jobs alone on the lanes: ${alone.map((r) => JSON.stringify(r.text)).join(' ')}`);
  const together = await Promise.all([
    ...jsonAsks.map((ask) => onLane(lanes, ask)),
    ...Array.from({ length: P }, (_, s) => onLane(lanes, plainAsk(s))),
  ]);
  const jsonTogether = together.slice(0, K);
  say(`grammar: together with ${P} plain: ${together.map((r) => JSON.stringify(r.text)).join(' ')}`);
  const own: Array<{ text: string; tokens: number }> = [];
  for (const ask of jsonAsks) own.push(await onWebLLM(chat, ask));
  const validCount = jsonTogether.filter((r) => valid(r.text)).length;
  const sameAlone = jsonTogether.filter((r, i) => r.text === alone[i]!.text).length;
  const sameWebLLM = alone.filter((r, i) => r.text === own[i]!.text).length;
  const webllmValid = own.filter((r) => valid(r.text)).length;
  say(
    `grammar check: ${K} JSON-schema jobs on lanes beside ${P} plain: valid ${validCount} of ${K}; same text as alone on the lanes ${sameAlone} of ${K}; lanes alone vs WebLLM's own JSON path: same text ${sameWebLLM} of ${K} (WebLLM's valid ${webllmValid} of ${K}); tokens ${jsonTogether.map((r) => r.tokens).join(',')}`,
  );
  for (const [i, r] of jsonTogether.entries())
    say(`  job ${i}: ${JSON.stringify(r.text)}${r.text === own[i]!.text ? '' : ` | WebLLM: ${JSON.stringify(own[i]!.text)}`}`);

  const runs: Record<'lanes' | 'one sequence' | 'one sequence (A/A)', number[]> = {
    lanes: [],
    'one sequence': [],
    'one sequence (A/A)': [],
  };
  const timed = async (name: keyof typeof runs): Promise<number> => {
    const start = performance.now();
    let tokens = 0;
    if (name === 'lanes') for (const r of await Promise.all(jsonAsks.map((ask) => onLane(lanes, ask)))) tokens += r.tokens;
    else for (const ask of jsonAsks) tokens += (await onWebLLM(chat, ask)).tokens;
    const tps = tokens / ((performance.now() - start) / 1000);
    runs[name].push(tps);
    return tps;
  };
  const order: Array<keyof typeof runs> = ['one sequence', 'lanes', 'one sequence (A/A)'];
  for (let rep = 0; rep < REPS; rep += 1) {
    const line: string[] = [];
    for (const name of rep % 2 === 0 ? order : order.toReversed()) line.push(`${name} ${f(await timed(name), 1)}`);
    say(`grammar rep ${rep}, ${K} JSON-schema jobs: ${line.join(', ')} tok/s`);
  }
  if (REPS === 0) return finish();
  const base = runs['one sequence'];
  const ratio = (xs: number[]) => xs.map((x, i) => x / base[i]!);
  say(
    `grammar throughput, ${K} JSON-schema jobs (min / median / max over ${REPS} reps): lanes ${mmm(runs.lanes)}, one sequence ${mmm(base)}, A/A ${mmm(runs['one sequence (A/A)'])} tok/s; lanes ÷ one sequence ${mmm(ratio(runs.lanes))}; A/A ÷ one sequence ${mmm(ratio(runs['one sequence (A/A)']))}`,
  );
  finish();

  function finish() {
    out.grammar = {
      setupMs,
      firstMs,
      valid: validCount,
      sameAlone,
      sameWebLLM,
      webllmValid,
      texts: jsonTogether.map((r) => r.text),
      webllm: own.map((r) => r.text),
      tps: runs,
    };
    lanes.dispose();
  }
}
