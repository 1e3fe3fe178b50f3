import type { ChatCompletionChunk, CreateEngine, Engine } from '@inkling/scheduler';

/** One stream as its engine produced it: when each content chunk and the finish came. */
export interface TimedStream {
  contentAt: number[];
  finishAt: number | undefined;
  finish: string | undefined;
  usage: ChatCompletionChunk['usage'];
}

/**
 * Wraps a `createEngine` so every stream's chunks are timed as the engine
 * yields them (a cancelled job's too, which the pool drains without showing),
 * and keeps the engines, so the bench can also drive one raw. A measuring aid.
 *
 * @example
 * const timed = timedEngines(wllamaEngines({ model, wasmUrl }));
 * const pool = new EnginePool({ createEngine: timed.createEngine, size: 1 });
 */
export function timedEngines(create: CreateEngine) {
  const streams: TimedStream[] = [];
  const engines: Engine[] = [];
  const createEngine: CreateEngine = async (index, onProgress, options) => {
    const engine = await create(index, onProgress, options);
    engines.push(engine);
    return {
      concurrency: engine.concurrency,
      embeddings: engine.embeddings,
      interruptGenerate: () => engine.interruptGenerate(),
      unload: async () => engine.unload?.(),
      chat: {
        completions: { create: async (request, callOptions) => timed(await engine.chat.completions.create(request, callOptions), streams) },
      },
    };
  };
  return { createEngine, streams, engines };
}

/** Times `stream` into a new entry of `streams`. */
export function timed(stream: AsyncIterable<ChatCompletionChunk>, streams: TimedStream[]): AsyncIterable<ChatCompletionChunk> {
  const record: TimedStream = { contentAt: [], finishAt: undefined, finish: undefined, usage: undefined };
  streams.push(record);
  return (async function* () {
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) record.contentAt.push(performance.now());
      if (choice?.finish_reason) {
        record.finishAt = performance.now();
        record.finish = choice.finish_reason;
      }
      if (chunk.usage) record.usage = chunk.usage;
      yield chunk;
    }
  })();
}
