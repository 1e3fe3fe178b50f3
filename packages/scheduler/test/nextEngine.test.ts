// @vitest-environment node
// "The next engine writes only its own particulars": an engine in a "worker" (the far end of a
// MessageChannel) written from the app door and the kit on /engine alone, run by a real pool.
import { describe, expect, it } from 'vitest';
import { type CreateEngine, type Engine, EnginePool, InvalidOptionError, ModelFetchError } from '../src/index.js';
import {
  CallChannel,
  CallsInFlight,
  ChunkQueue,
  FAILURE_ERRORS,
  type Rule,
  answerCall,
  chunkText,
  decodeError,
  encodeError,
  firstProblem,
  isCallAnswer,
  isCallMessage,
  isText,
  optional,
  streamChunk,
  usageChunk,
  wholeNumber,
} from '../src/engine.js';
import type { ChatCompletionChunk } from '../src/engine.js';

/** The far side: echoes the last message's words one by one, stops on `{ t: 'stop', rid }`. */
function echoWorker(port: MessagePort): void {
  const stopped = new Set<number>();
  const send = (reply: unknown) => port.postMessage(reply);
  port.addEventListener('message', ({ data }) => {
    if (data?.t === 'stop') return void stopped.add(data.rid);
    if (!isCallMessage(data)) return;
    const { rid } = data;
    const input = data.input as { model?: string; text?: string };
    if (data.op === 'load') {
      void answerCall(
        rid,
        () => {
          if (input.model === 'missing') {
            throw new ModelFetchError('No such model.', { device: 'cpu', model: 'missing', url: 'https://x.test/missing', status: 404 });
          }
          return { ready: true };
        },
        send,
      );
      return;
    }
    void answerCall(
      rid,
      async () => {
        const words = (input.text ?? '').split(' ');
        let sent = 0;
        for (const word of words) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (stopped.has(rid)) return { sent, stopped: true };
          port.postMessage({ t: 'progress', rid, report: sent === 0 ? word : ` ${word}` });
          sent += 1;
        }
        return { sent, stopped: false };
      },
      send,
    );
  });
  port.start();
}

const RULES: readonly Rule[] = [
  ['model', isText, 'the model to load, e.g. "echo"'],
  ['delayMs', optional(wholeNumber(0, 1000)), 'a whole number of milliseconds from 0 to 1000'],
];

/** The page side: everything but the protocol's names comes from the kit. */
function echoEngines(options: { model: string; delayMs?: number }): CreateEngine {
  const problem = firstProblem(options, RULES, 'echoEngines() ');
  if (problem) throw new InvalidOptionError(problem);
  return async () => {
    const { port1, port2 } = new MessageChannel();
    echoWorker(port2);
    const channel = new CallChannel<'load' | 'generate'>((message) => port1.postMessage(message), {
      decode: (wire) => decodeError(wire, FAILURE_ERRORS),
    });
    port1.addEventListener('message', ({ data }) => void (isCallAnswer(data) && channel.receive(data)));
    port1.start();
    const calls = new CallsInFlight();
    try {
      await channel.call('load', { model: options.model });
    } catch (error) {
      port1.close();
      throw error;
    }
    const meta = { id: 'echo', model: options.model };
    const engine: Engine = {
      chat: {
        completions: {
          async create(request, callOptions) {
            const call = calls.open(callOptions?.signal);
            const queue = new ChunkQueue<ChatCompletionChunk>();
            const text = String(request.messages.at(-1)?.content ?? '');
            const { rid, answer } = channel.open(
              'generate',
              { text },
              {
                onProgress: (word) => queue.push(streamChunk(meta, { role: 'assistant', content: String(word) }, null)),
              },
            );
            call.signal.addEventListener('abort', () => port1.postMessage({ t: 'stop', rid }), { once: true });
            answer.then(
              (value) => {
                const { sent, stopped } = value as { sent: number; stopped: boolean };
                queue.push(streamChunk(meta, {}, stopped ? 'abort' : 'stop'));
                queue.push(usageChunk(meta, { prompt_tokens: 1, completion_tokens: sent, total_tokens: sent + 1 }));
                queue.end();
              },
              (reason) => queue.fail(reason),
            );
            void answer.finally(() => call.release());
            return queue;
          },
        },
      },
      interruptGenerate: () => calls.interrupt(),
      unload: async () => {
        channel.close();
        port1.close();
      },
    };
    return engine;
  };
}

describe('an engine written from the kit alone', () => {
  it('streams through the pool, chunk by chunk, with its usage', async () => {
    const pool = new EnginePool({ createEngine: echoEngines({ model: 'echo' }), size: 1 });
    await pool.load();
    let streamed = '';
    const result = await pool.submit({
      params: { messages: [{ role: 'user', content: 'one two three' }] },
      onChunk: (chunk) => void (streamed += chunkText(chunk)),
    });
    expect(result).toMatchObject({ status: 'done', text: 'one two three', finishReason: 'stop' });
    expect(streamed).toBe('one two three');
    expect(result.usage).toMatchObject({ completion_tokens: 3 });
    await pool.unload();
  });

  it('stops a job the pool cancels, and runs the next one after it', async () => {
    const pool = new EnginePool({ createEngine: echoEngines({ model: 'echo' }), size: 1 });
    await pool.load();
    const long = pool.submit({
      session: 's',
      params: { messages: [{ role: 'user', content: 'a b c d e f g h i j k l m n o p' }] },
      onChunk: (chunk) => void (chunkText(chunk) === ' b' && pool.cancel('s')),
    });
    const next = pool.submit({ params: { messages: [{ role: 'user', content: 'after' }] } });
    const [cancelled, after] = await Promise.all([long, next]);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.text.startsWith('a b')).toBe(true);
    expect(cancelled.text.length).toBeLessThan('a b c d e f g h i j k l m n o p'.length);
    expect(after).toMatchObject({ status: 'done', text: 'after' });
    await pool.unload();
  });

  it("carries the worker's failure across as the kit's class, with its device", async () => {
    const pool = new EnginePool({ createEngine: echoEngines({ model: 'missing' }), size: 1 });
    const failed = await pool.load().then(
      () => undefined,
      (error: unknown) => error,
    );
    const error = failed instanceof ModelFetchError ? failed : (failed as { cause?: unknown } | undefined)?.cause;
    expect(error).toBeInstanceOf(ModelFetchError);
    expect(error).toMatchObject({ device: 'cpu', model: 'missing', status: 404, kind: 'model-not-found' });
    expect(pool.getSnapshot().phase).toBe('error');
    await pool.unload();
  });

  it('checks its options with a rule table: a typed error that names the option, what it wants and what it got', () => {
    expect(() => echoEngines({ model: '' })).toThrow(InvalidOptionError);
    expect(() => echoEngines({ model: 'echo', delayMs: 2.5 })).toThrow(
      'echoEngines() "delayMs" must be a whole number of milliseconds from 0 to 1000; it got 2.5.',
    );
    // encodeError is the other half of the wire: a class the decoder knows comes back as itself.
    const back = decodeError(encodeError(new ModelFetchError('x', { device: 'gpu', model: 'm', url: 'u' })), FAILURE_ERRORS);
    expect(back).toBeInstanceOf(ModelFetchError);
  });
});
