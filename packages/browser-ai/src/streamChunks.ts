import type { ChatCompletionChunk, CompletionUsage, FinishReason } from '@inkling/scheduler';
import { usageChunk as kitUsageChunk, streamChunk } from '@inkling/scheduler/engine';

let counter = 0;

/** A content chunk of a built-in engine's stream, built by the kit's `streamChunk`. */
export function chunk(id: string, model: string, content: string, finish: FinishReason | null): ChatCompletionChunk {
  return streamChunk({ id, model }, { role: 'assistant', content }, finish);
}

/** The last chunk: no choices, the usage (the kit's `usageChunk`). */
export function usageChunk(id: string, model: string, usage: CompletionUsage): ChatCompletionChunk {
  return kitUsageChunk({ id, model }, usage);
}

/** A fresh chunk id. */
export function chunkId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** How a stream of text pieces ended. */
export interface PiecesEnd {
  finish: FinishReason;
  pieces: number;
}

/**
 * Reads a browser's `ReadableStream<string>` of text pieces (each a delta, as
 * Chrome 138 and later stream them) and yields one content chunk per piece.
 * `controller` is aborted to stop: the stream is cancelled and the chunks end
 * with `'abort'`. After `maxTokens` pieces it stops with `'length'` (the Prompt
 * API has no such limit of its own).
 */
export async function* pieceChunks(
  stream: ReadableStream<string>,
  {
    id,
    model,
    controller,
    maxTokens,
  }: { id: string; model: string; controller: { readonly signal: AbortSignal; abort(): void }; maxTokens?: number | null | undefined },
  end: PiecesEnd,
): AsyncGenerator<ChatCompletionChunk> {
  const reader = stream.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  controller.signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      if (controller.signal.aborted) {
        end.finish = 'abort';
        return;
      }
      let step: ReadableStreamReadResult<string>;
      try {
        step = await reader.read();
      } catch (error) {
        if (controller.signal.aborted) {
          end.finish = 'abort';
          return;
        }
        throw error;
      }
      if (step.done) {
        end.finish = controller.signal.aborted ? 'abort' : 'stop';
        return;
      }
      if (!step.value) continue;
      end.pieces += 1;
      yield chunk(id, model, step.value, null);
      if (maxTokens != null && end.pieces >= maxTokens) {
        end.finish = 'length';
        controller.abort();
        return;
      }
    }
  } finally {
    controller.signal.removeEventListener('abort', stop);
    try {
      reader.releaseLock();
    } catch {
      // A read still pending after a cancel: the stream is done with either way.
    }
  }
}
