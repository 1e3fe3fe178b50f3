import type { ChatCompletionChunk, CreateEngine, Engine } from '@inkling/scheduler';

/** One chunk as the engine produced it, before the pool saw it. */
export interface ProbedChunk {
  at: number;
  content: boolean;
  finish: string | null;
  usage: boolean;
}

/**
 * Wraps a `createEngine` so every chunk each engine streams is recorded with
 * its time, including the chunks of a cancelled job that the pool drains and
 * no longer shows. That is how the tools count tokens generated after a
 * cancel and time the final chunk. A measuring aid, not part of the kit.
 */
export function probeEngines(create: CreateEngine, now: () => number = () => performance.now()) {
  const streams: ProbedChunk[][] = [];
  const probed: CreateEngine = async (index, onProgress, options) => {
    const engine = await create(index, onProgress, options);
    const wrapped: Engine = {
      concurrency: engine.concurrency,
      embeddings: engine.embeddings,
      interruptGenerate: () => engine.interruptGenerate(),
      unload: async () => engine.unload?.(),
      chat: {
        completions: {
          create: async (request, callOptions) => {
            const stream = await engine.chat.completions.create(request, callOptions);
            const chunks: ProbedChunk[] = [];
            streams.push(chunks);
            return {
              [Symbol.asyncIterator]: () => {
                const iterator = stream[Symbol.asyncIterator]();
                return {
                  next: async () => {
                    const step = await iterator.next();
                    if (!step.done) chunks.push(describe(step.value, now()));
                    return step;
                  },
                  return: async () => (await iterator.return?.()) ?? { done: true as const, value: undefined },
                };
              },
            };
          },
        },
      },
    };
    return wrapped;
  };
  return { createEngine: probed, streams };
}

function describe(chunk: ChatCompletionChunk, at: number): ProbedChunk {
  const choice = chunk.choices[0];
  return { at, content: Boolean(choice?.delta.content), finish: choice?.finish_reason ?? null, usage: Boolean(chunk.usage) };
}

/** Content chunks at or after `at`, and the time of the finish chunk, in one probed stream. */
export function afterCancel(chunks: readonly ProbedChunk[], at: number): { tokens: number; finalAt: number | undefined } {
  return {
    tokens: chunks.filter((c) => c.content && c.at >= at).length,
    finalAt: chunks.find((c) => c.finish !== null)?.at,
  };
}
