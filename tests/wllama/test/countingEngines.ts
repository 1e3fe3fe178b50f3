import type { ChatCompletionChunk, CreateEngine, Engine } from '@inkling/scheduler';

/** One chat call as the engine streamed it. */
export interface CountedCall {
  /** When the call was cancelled (its signal aborted, or the engine interrupted); `-1` while not. */
  cancelledAt: number;
  /** Content chunks (about one a token) the engine streamed after that. */
  afterCancel: number;
  contentChunks: number;
  finishReason: string | undefined;
}

/**
 * Wraps a `createEngine` so every chat call records what its engine streamed
 * after the call was cancelled. It passes everything through unchanged.
 */
export function countingEngines(create: CreateEngine): { createEngine: CreateEngine; calls: CountedCall[] } {
  const calls: CountedCall[] = [];
  const createEngine: CreateEngine = async (index, onProgress, options) => {
    const engine = await create(index, onProgress, options);
    const running = new Set<CountedCall>();
    const wrapped: Engine = {
      concurrency: engine.concurrency ?? 1,
      embeddings: engine.embeddings,
      interruptGenerate: () => {
        for (const call of running) if (call.cancelledAt < 0) call.cancelledAt = performance.now();
        engine.interruptGenerate();
      },
      unload: () => engine.unload?.() ?? Promise.resolve(),
      chat: {
        completions: {
          create: async (request, callOptions) => {
            const call: CountedCall = { cancelledAt: -1, afterCancel: 0, contentChunks: 0, finishReason: undefined };
            calls.push(call);
            callOptions?.signal?.addEventListener('abort', () => {
              if (call.cancelledAt < 0) call.cancelledAt = performance.now();
            });
            const stream = await engine.chat.completions.create(request, callOptions);
            return (async function* (): AsyncGenerator<ChatCompletionChunk> {
              running.add(call);
              try {
                for await (const chunk of stream) {
                  const choice = chunk.choices[0];
                  if (choice?.delta.content) {
                    call.contentChunks += 1;
                    if (call.cancelledAt >= 0) call.afterCancel += 1;
                  }
                  if (choice?.finish_reason) call.finishReason = choice.finish_reason;
                  yield chunk;
                }
              } finally {
                running.delete(call);
              }
            })();
          },
        },
      },
    };
    return wrapped;
  };
  return { createEngine, calls };
}
