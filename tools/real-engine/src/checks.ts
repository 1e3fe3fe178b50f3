import { type ChatCompletionChunk, type CreateEngine, EnginePool, type JobResult, type PoolLoadProgress } from '@inkling/scheduler';
import { afterCancel, probeEngines } from './chunkProbe.js';
import { DETERMINISTIC } from './setup.js';

/** One check's outcome. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** What the checks need: engines for the chat model, and for an embedding model when one is at hand. */
export interface ChecksInput {
  /** `undefined` skips the chat checks. */
  chat: CreateEngine | undefined;
  embed: CreateEngine | undefined;
  log: (line: string) => void;
  now?: () => number;
  /** What the model is steered to say, and its embedding width. Default: the synthetic WebLLM models'. */
  expect?: CheckExpectations;
}

/** What a check model says when steered, per engine. */
export interface CheckExpectations {
  /** Sampling that makes the answer one repeated token (`logit_bias`). */
  deterministic: Record<string, unknown>;
  /** The text of three tokens of that answer. */
  threeTokens: string;
  /** Vectors' length from the embedding model. */
  embeddingWidth: number;
}

const WEBLLM_EXPECTATIONS: CheckExpectations = { deterministic: DETERMINISTIC, threeTokens: ' ok ok ok', embeddingWidth: 384 };

/**
 * Runs `@inkling/webllm` + `EnginePool` against a real WebLLM engine: a load
 * with progress, a streamed completion, a superseded job that stops (tokens
 * generated after the cancel are counted), a preemption (on an engine of
 * lanes: an interactive job on the lane kept for it, beside the batch job), and an embedding
 * when an embedding model is given.
 * Token counts are small: on a CPU a token takes ~16 s.
 */
export async function runChecks(input: ChecksInput): Promise<CheckResult[]> {
  const { log } = input;
  const expected = input.expect ?? WEBLLM_EXPECTATIONS;
  const ask = (content: string, max_tokens: number) => ({
    messages: [{ role: 'user' as const, content }],
    max_tokens,
    ...expected.deterministic,
  });
  const now = input.now ?? (() => performance.now());
  const results: CheckResult[] = [];
  const record = (name: string, ok: boolean, detail: string) => {
    results.push({ name, ok, detail });
    log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
  };
  if (!input.chat) {
    await checkEmbedding(input.embed, expected.embeddingWidth, record, now, log);
    return results;
  }
  const probe = probeEngines(input.chat, now);
  const pool = new EnginePool({ createEngine: probe.createEngine, size: 1 });

  // 1. Load, with progress.
  const reports: PoolLoadProgress[] = [];
  let lastLogged = -1;
  const t0 = now();
  try {
    await pool.load((report) => {
      reports.push(report);
      const pct = Math.floor(report.progress * 10);
      if (pct !== lastLogged) {
        lastLogged = pct;
        log(`  load ${(report.progress * 100).toFixed(0)}% [${String(report.phase)}] ${report.text.slice(0, 90)}`);
      }
    });
  } catch (error) {
    record('load', false, `failed: ${explain(error)}`);
    return results;
  }
  // The worker's load log (prefix reuse, the greedy pick, the lanes and where their rows are picked).
  log(`  load log: ${reports.at(-1)?.text ?? '(none)'}`);
  const fractions = reports.map((r) => r.progress);
  const rising = fractions.every((p, i) => i === 0 || p >= (fractions[i - 1] ?? 0));
  const phases = [...new Set(reports.map((r) => String(r.phase)))];
  record(
    'load with progress',
    rising && fractions.at(-1) === 1 && reports.length > 2,
    `${((now() - t0) / 1000).toFixed(1)} s, ${reports.length} reports, phases ${phases.join(' > ')}, overall fraction ${rising ? 'never went back' : 'WENT BACK'}, ends at ${fractions.at(-1)}`,
  );

  // 2. A streamed completion.
  const chunks: ChatCompletionChunk[] = [];
  const t1 = now();
  const firstAt: number[] = [];
  const streamed = await pool.submit({
    params: ask('Say ok three times.', 3),
    onChunk: (c) => {
      if (c.choices[0]?.delta.content) firstAt.push(now());
      chunks.push(c);
    },
  });
  const extra = (streamed.usage as { extra?: Record<string, unknown> } | undefined)?.extra;
  record(
    'streamed completion',
    streamed.status === 'done' && streamed.text === expected.threeTokens && firstAt.length === 3,
    `text ${JSON.stringify(streamed.text)}, ${chunks.length} chunks, finish ${streamed.finishReason}, first token after ${(((firstAt[0] ?? now()) - t1) / 1000) | 0} s, ${decodeSpeed(extra)}`,
  );

  // 3. A superseded job stops: count what its engine generated after the cancel.
  let cancelAt = 0;
  let latest: Promise<JobResult> | undefined;
  const old = pool.submit({
    session: 'ghost',
    priority: 'interactive',
    params: ask('First keystroke', 8),
    onChunk: (c) => {
      if (!latest && c.choices[0]?.delta.content) {
        cancelAt = now();
        latest = pool.submit({ session: 'ghost', priority: 'interactive', params: ask('Second keystroke', 1) });
      }
    },
  });
  const stream = probe.streams.length;
  const superseded = await old;
  const second = latest ? await latest : undefined;
  // Read once the next job ran: the superseded stream's final chunk may come after the job settled.
  const { tokens: after, finalAt } = afterCancel(probe.streams[stream] ?? [], cancelAt);
  record(
    'superseded job stops',
    superseded.status === 'cancelled' && superseded.cancelReason === 'supersede' && after <= 1 && second?.status === 'done',
    `superseded after its first token; ${after} token(s) generated after the cancel (of max 8); final chunk ${finalAt === undefined ? 'never came' : `${((finalAt - cancelAt) / 1000).toFixed(2)} s after the cancel`}; the next job ${second?.status} with ${JSON.stringify(second?.text)}`,
  );

  // 4. Preemption: an interactive job takes the engine from a preemptible batch job (one lane); on an
  // engine of lanes it takes the lane kept for interactive work, beside the batch job.
  let ghost: Promise<JobResult> | undefined;
  let preemptAt = 0;
  const batch = pool.submit({
    task: 'translate-page',
    preemptible: true,
    params: ask('Translate this page', 8),
    onChunk: (c) => {
      if (!ghost && c.choices[0]?.delta.content) {
        preemptAt = now();
        ghost = pool.submit({ priority: 'interactive', params: ask('ghost', 1) });
      }
    },
  });
  const batchStream = probe.streams.length;
  const victim = await batch;
  const winner = ghost ? await ghost : undefined;
  const preempted = afterCancel(probe.streams[batchStream] ?? [], preemptAt);
  const lanes = pool.getSnapshot().engines[0]?.concurrency ?? 1;
  if (lanes > 1) {
    // An engine of lanes keeps its last free lane for interactive work: the keystroke runs beside the batch job, nothing is preempted.
    const beside = winner?.startedAt !== undefined && winner.startedAt < victim.finishedAt;
    record(
      'interactive job beside a batch job (lanes)',
      victim.status === 'done' && winner?.status === 'done' && beside && (winner.startedAt ?? Infinity) - winner.submittedAt < 1000,
      `${lanes} lanes; batch job ${victim.status} with ${JSON.stringify(victim.text)}, interactive job ${winner?.status} ${JSON.stringify(winner?.text)}, started ${winner?.startedAt === undefined ? 'never' : `${(winner.startedAt - winner.submittedAt).toFixed(0)} ms after it was submitted`}, ${beside ? 'while the batch job ran' : 'after the batch job'}`,
    );
    await pool.unload();
    await checkEmbedding(input.embed, expected.embeddingWidth, record, now, log);
    return results;
  }
  record(
    'preemption',
    victim.status === 'preempted' && victim.text.length > 0 && preempted.tokens <= 1 && winner?.status === 'done',
    `batch job ${victim.status} with partial text ${JSON.stringify(victim.text)} (max 8 tokens; ${preempted.tokens} generated after the interactive job came), interactive job ${winner?.status} ${JSON.stringify(winner?.text)}`,
  );
  await pool.unload();

  // 5. An embedding, on its own pool, last: on a CPU its load is the slowest step.
  await checkEmbedding(input.embed, expected.embeddingWidth, record, now, log);
  return results;
}

/** Decode and prefill speeds from the usage's extra: WebLLM's fields, or llama.cpp's timings. */
function decodeSpeed(extra: Record<string, unknown> | undefined): string {
  const timings = extra?.timings as Record<string, number> | undefined;
  const decode = timings?.predicted_per_second ?? (extra?.decode_tokens_per_s as number | undefined);
  const prefill = timings?.prompt_per_second ?? (extra?.prefill_tokens_per_s as number | undefined);
  return `decode ${decode?.toFixed(3)} tok/s, prefill ${prefill?.toFixed(2)} tok/s`;
}

/** An embedding on its own pool, with a time limit on its load. */
async function checkEmbedding(
  embed: CreateEngine | undefined,
  width: number,
  record: (name: string, ok: boolean, detail: string) => void,
  now: () => number,
  log: (line: string) => void,
): Promise<void> {
  if (!embed) {
    record('embedding', true, 'skipped: no embedding library at hand');
    return;
  }
  const embedPool = new EnginePool({ createEngine: embed, size: 1 });
  try {
    const t0 = now();
    let shown = -1;
    await withTimeout(
      embedPool.load((report) => {
        const tenth = Math.floor(report.progress * 10);
        if (tenth !== shown)
          log(`  embedding load ${(report.progress * 100).toFixed(0)}% [${String(report.phase)}] ${report.text.slice(0, 80)}`);
        shown = tenth;
      }),
      EMBED_LOAD_LIMIT_MS,
      'the embedding model did not load',
    );
    const loaded = now();
    const embedded = await embedPool.submit({ kind: 'embedding', params: { input: ['hello world', 'ghost text'] } });
    const vectors = embedded.embeddings ?? [];
    const dims = vectors.map((v) => v.embedding.length);
    const finite = vectors.every((v) => v.embedding.every(Number.isFinite));
    record(
      'embedding',
      embedded.status === 'done' && vectors.length === 2 && dims.every((d) => d === width),
      `${embedded.status}${embedded.error ? ` (${embedded.error.message})` : ''}: ${vectors.length} vectors of ${dims.join(', ')} dims (${finite ? 'finite' : 'not finite: zero weights normalise 0/0'}), load ${((loaded - t0) / 1000).toFixed(1)} s, embed ${((now() - loaded) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    record('embedding', false, `load failed: ${explain(error)}`);
  } finally {
    await embedPool.unload();
  }
}

/** On a CPU the embedding library's load has taken 10+ minutes, and once lost its device. */
const EMBED_LOAD_LIMIT_MS = 15 * 60_000;

/** Rejects with `what` when `promise` takes longer than `ms`. */
async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms / 60_000} minutes`)), ms)),
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error with its causes, for a log line. */
function explain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    parts.push(
      e instanceof Error ? `${e.name}: ${e.message}${parts.length === 0 ? '' : ` @ ${e.stack?.split('\n')[1]?.trim()}`}` : String(e),
    );
  }
  return parts.join(' <- ');
}
