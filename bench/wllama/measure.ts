import { defaultTranslateParams } from '@inkling/react';
import type { GhostParamsInput } from '@inkling/react';
import type { ChatCompletionRequest, Engine, EnginePool } from '@inkling/scheduler';
import { type TimedStream, timed } from './timedEngines.js';

/** llama.cpp's timings, kept by @inkling/wllama under `usage.extra.timings`. */
export interface Timings {
  prompt_n?: number;
  cache_n?: number;
  predicted_per_second?: number;
}

export const timingsOf = (stream: TimedStream | undefined): Timings =>
  ((stream?.usage as { extra?: { timings?: Timings } } | undefined)?.extra?.timings ?? {}) as Timings;

/** Decode speed seen by the consumer: tokens after the first, over the time since the first. */
export function decodeRate(stream: TimedStream): number {
  const at = stream.contentAt;
  const first = at[0];
  const last = at.at(-1);
  return first === undefined || last === undefined || at.length < 2 ? Number.NaN : ((at.length - 1) * 1000) / (last - first);
}

const PROSE =
  'Thanks for the update on the project. I think we should move the meeting to next week, since the team is busy with the release. ' +
  'Could you send me the draft of the report before Friday? I want to review the numbers and check that the plan still makes sense. ';

/** About `chars` characters of English prose, for prompts. */
export const prose = (chars: number) => PROSE.repeat(Math.ceil(chars / PROSE.length)).slice(0, chars);

/** One generation of `tokens` tokens on the engine itself, no pool. */
export async function rawRun(engine: Engine, request: ChatCompletionRequest, streams: TimedStream[]): Promise<TimedStream> {
  const stream = timed(
    await engine.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }),
    streams,
  );
  for await (const _ of stream) {
    // drained: the timing is in the record
  }
  return streams.at(-1)!;
}

/** The same generation through the pool. */
export async function poolRun(pool: EnginePool, request: ChatCompletionRequest, streams: TimedStream[]): Promise<TimedStream> {
  const before = streams.length;
  await pool.submit({ params: request });
  return streams[before]!;
}

/** Cancels a pool job after `after` tokens; returns ms from the cancel to the engine's final chunk, and tokens after it. */
export async function cancelToFinal(pool: EnginePool, request: ChatCompletionRequest, streams: TimedStream[], after: number) {
  const before = streams.length;
  const controller = new AbortController();
  let cancelAt = 0;
  let seen = 0;
  await pool.submit({
    params: request,
    signal: controller.signal,
    onChunk: (chunk) => {
      if (chunk.choices[0]?.delta.content && (seen += 1) === after) {
        cancelAt = performance.now();
        controller.abort();
      }
    },
  });
  const stream = streams[before]!;
  return {
    ms: (stream.finishAt ?? Number.NaN) - cancelAt,
    tokensAfter: stream.contentAt.filter((t) => t > cancelAt).length,
    finish: stream.finish,
  };
}

/**
 * First token of a ghost-text request for `before` (the text left of the
 * caret), idle or while a preemptible translation runs on the only engine.
 * Returns ms from submit to the first content chunk, and llama.cpp's prompt
 * tokens read and reused from its cache.
 */
export async function ghostFirstToken(
  pool: EnginePool,
  build: (input: GhostParamsInput) => ChatCompletionRequest,
  before: string,
  streams: TimedStream[],
  busy: boolean,
) {
  let translation: Promise<unknown> | undefined;
  if (busy) {
    const signal = new EventTarget();
    const streaming = new Promise<void>((resolve) => signal.addEventListener('chunk', () => resolve(), { once: true }));
    translation = pool.submit({
      task: 'translate-page',
      preemptible: true,
      params: { ...defaultTranslateParams({ text: prose(300), to: 'fr', from: undefined }), max_tokens: 400 },
      onChunk: () => signal.dispatchEvent(new Event('chunk')),
    });
    await streaming;
  }
  const before0 = streams.length;
  const submitted = performance.now();
  let first = Number.NaN;
  const result = await pool.submit({
    session: 'ghost',
    priority: 'interactive',
    params: build({ before, after: '', maxTokens: 24 }),
    onChunk: (chunk) => {
      if (Number.isNaN(first) && chunk.choices[0]?.delta.content) first = performance.now() - submitted;
    },
  });
  // The translation's stream began before this one; the ghost's is the next.
  const ghost = streams[before0];
  await translation;
  const timings = timingsOf(ghost);
  return { ms: first, status: result.status, promptTokens: timings.prompt_n ?? Number.NaN, cachedTokens: timings.cache_n ?? Number.NaN };
}
