import { APICallError, InvalidPromptError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import {
  type ChatCompletionChunk,
  type Engine,
  EngineCrashedError,
  EnginePool,
  InklingError,
  InvalidSchemaError,
  ModelFetchError,
  OutOfMemoryError,
  type StreamingChatCompletionRequest,
  WorkerCrashedError,
} from '@inkling/scheduler';
import { engineCalls, fakePool } from '@inkling/scheduler/testing';
import { Output, embedMany, generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkError } from '../src/aiSdkError.js';
import { createInkling } from '../src/index.js';

const execute = async ({ city }: { city: string }) => ({ city, sky: 'sun' });

async function ready(options: Parameters<typeof fakePool>[0] = {}) {
  const made = fakePool({ tokenMs: 2, reply: 'Hello from the pool.', ...options }, { size: 1 });
  await made.pool.load();
  return { ...made, inkling: createInkling({ pool: made.pool }) };
}

describe('createInkling with the real AI SDK', () => {
  it('streamText streams the job, with usage and finish reason', async () => {
    const { inkling } = await ready();
    const result = streamText({ model: inkling('fake'), prompt: 'Say hello.' });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('Hello from the pool.');
    expect(await result.finishReason).toBe('stop');
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(4);
    expect(usage.inputTokens).toBeGreaterThan(0);
  });

  it('generateText runs at high priority by default and takes providerOptions', async () => {
    const { inkling, pool, createEngine } = await ready();
    const seen: unknown[] = [];
    pool.subscribe(() => {
      for (const job of pool.getSnapshot().jobs) seen.push({ priority: job.priority, session: job.session, preemptible: job.preemptible });
    });
    const { text } = await generateText({ model: inkling('fake'), prompt: 'Hi', temperature: 0.2, maxOutputTokens: 10 });
    expect(text).toBe('Hello from the pool.');
    await generateText({ model: inkling('fake'), prompt: 'Hi', providerOptions: { inkling: { priority: 'low', session: 'summary' } } });
    expect(seen).toContainEqual({ priority: 'high', session: undefined, preemptible: false });
    expect(seen).toContainEqual({ priority: 'low', session: 'summary', preemptible: false });
    const request = engineCalls(createEngine)[0]?.request;
    expect(request).toMatchObject({ temperature: 0.2, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('warns about settings the engines ignore, and refuses an unknown Inkling setting', async () => {
    const { inkling } = await ready();
    const { warnings } = await generateText({ model: inkling('fake'), prompt: 'Hi', topK: 3 });
    expect(warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', feature: 'topK' }));
    // The AI SDK's own user-agent header is no setting of the caller's: no warning for it.
    expect((warnings ?? []).map((w) => (w.type === 'unsupported' ? w.feature : w.type))).toEqual(['topK']);
    const withHeader = await generateText({ model: inkling('fake'), prompt: 'Hi', headers: { 'x-trace': '1' } });
    expect(withHeader.warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', feature: 'headers' }));
    await expect(generateText({ model: inkling('fake'), prompt: 'Hi', providerOptions: { inkling: { prio: 'low' } } })).rejects.toThrow(
      /prio is not an Inkling setting/,
    );
  });

  it('abort mid-stream cancels the job at once and frees the engine', async () => {
    const { inkling, pool } = await ready({ tokenMs: 20, reply: Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ') });
    const abort = new AbortController();
    const result = streamText({ model: inkling('fake'), prompt: 'Go', abortSignal: abort.signal });
    let got = 0;
    await expect(
      (async () => {
        for await (const _ of result.textStream) {
          got += 1;
          if (got === 3) abort.abort();
        }
      })(),
    ).resolves.toBeUndefined();
    expect(pool.getSnapshot().jobs).toHaveLength(0);
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    const next = await generateText({ model: inkling('fake'), prompt: 'Next' });
    expect(next.text).toContain('w0');
  });

  it('a later call of the same session supersedes the one before', async () => {
    const { inkling } = await ready({ tokenMs: 20 });
    const first = streamText({ model: inkling('fake'), prompt: 'One', providerOptions: { inkling: { session: 's' } } });
    const firstDone = (async () => {
      for await (const _ of first.textStream);
      return first.finishReason;
    })();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await generateText({ model: inkling('fake'), prompt: 'Two', providerOptions: { inkling: { session: 's' } } });
    expect(second.text).toBe('Hello from the pool.');
    expect(await firstDone).toBe('other');
  });

  it('generateObject and Output.object get a validated object, in the background by default', async () => {
    const { inkling, pool, createEngine } = await ready();
    const priorities: string[] = [];
    pool.subscribe(() => pool.getSnapshot().jobs.forEach((job) => priorities.push(`${job.priority}/${job.preemptible}`)));
    const schema = z.object({ title: z.string().max(20), tags: z.array(z.enum(['home', 'work'])).max(3) });
    const { object } = await generateObject({ model: inkling('fake'), schema, prompt: 'Tag this note.' });
    expect(schema.parse(object)).toEqual(object);
    expect(priorities).toContain('normal/true');
    const format = engineCalls(createEngine)[0]?.request.response_format as { type: string; json_schema: { schema: { type: string } } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.schema.type).toBe('object');
    const { output } = await generateText({ model: inkling('fake'), output: Output.object({ schema }), prompt: 'Again.' });
    expect(schema.parse(output)).toEqual(output);
  });

  it('maps errors onto the AI SDK classes, keeping retryable', async () => {
    const { inkling } = await ready({ constrain: false });
    await expect(
      generateObject({ model: inkling('fake'), schema: z.object({ a: z.string() }), prompt: 'x', maxRetries: 0 }),
    ).rejects.toSatisfy((e) => UnsupportedFunctionalityError.isInstance(e));
    const bad = await ready();
    await expect(
      generateText({ model: bad.inkling('fake'), prompt: 'x', maxRetries: 0, providerOptions: { inkling: { priority: 'urgent' } } }),
    ).rejects.toSatisfy((e) => InvalidPromptError.isInstance(e));
    // A crashed engine is replaced by the pool: retryable, and the AI SDK's own retry then succeeds.
    const crashy = await ready();
    crashy.createEngine.engines[0]?.failNext(new EngineCrashedError('The WebGPU device was lost.'), { fatal: true });
    const { text } = await generateText({ model: crashy.inkling('fake'), prompt: 'x', maxRetries: 2 });
    expect(text).toBe('Hello from the pool.');
    expect(crashy.createEngine.engines.length).toBe(2);
  });

  it('an error with a status and retryable (a shedding server) is an APICallError that keeps both', () => {
    const shed = Object.assign(new InklingError('The server is busy (503).'), {
      status: 503,
      retryable: true,
      url: 'http://127.0.0.1:8080/v1/chat/completions',
    });
    const error = aiSdkError(shed, { messages: [] });
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 503, isRetryable: true, url: 'http://127.0.0.1:8080/v1/chat/completions', cause: shed });
    expect(APICallError.isInstance(aiSdkError(new InklingError('bad request'), {}))).toBe(true);
    expect((aiSdkError(new InklingError('bad request'), {}) as APICallError).isRetryable).toBe(false);
  });

  it('chooses the AI SDK class by the error’s class, not its name: subclasses count, a look-alike does not', () => {
    const schema = new InvalidSchemaError('properties.a', 'no such type');
    expect(InvalidPromptError.isInstance(aiSdkError(schema, {}))).toBe(true);
    const lookAlike = Object.assign(new InklingError('not a job error'), { name: 'InvalidJobError' });
    expect(InvalidPromptError.isInstance(aiSdkError(lookAlike, {}))).toBe(false);
    const memory = aiSdkError(new OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: 'Qwen' }), {});
    expect(memory).toMatchObject({ isRetryable: false, data: { name: 'OutOfMemoryError' } });
    const gone = aiSdkError(new ModelFetchError('HTTP 404', { device: 'cpu', model: 'm', url: 'https://x.test/m.gguf', status: 404 }), {});
    expect(gone).toMatchObject({ statusCode: 404, url: 'https://x.test/m.gguf', isRetryable: false });
    expect(aiSdkError(new WorkerCrashedError('gone', { device: 'cpu' }), {})).toMatchObject({ isRetryable: true });
  });

  it('tools: the model calls a tool, the AI SDK runs it, the result goes back and the model answers', async () => {
    const { inkling, createEngine } = await ready({ reply: 'It is sunny in Oslo.' });
    const result = await generateText({
      model: inkling('fake'),
      prompt: 'Use weather for Oslo',
      tools: { weather: tool({ description: 'The weather', inputSchema: z.object({ city: z.enum(['Oslo', 'Lima']) }), execute }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0]?.toolCalls[0]?.toolName).toBe('weather');
    expect(result.text).toBe('It is sunny in Oslo.');
    const second = engineCalls(createEngine)[1]?.request.messages as Array<{ role: string }>;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('embedMany takes providerOptions.inkling (the call over the model), and warns about a key it does not know', async () => {
    const { inkling, pool } = await ready();
    const seen: unknown[] = [];
    pool.subscribe(() => {
      for (const job of pool.getSnapshot().jobs)
        seen.push({ kind: job.kind, priority: job.priority, task: job.task, preemptible: job.preemptible });
    });
    const model = inkling.embeddingModel('fake', { priority: 'high', task: 'index' });
    const asked = await embedMany({
      model,
      values: ['a', 'bb'],
      providerOptions: { inkling: { priority: 'low', task: 'reindex', preemptible: false } },
    });
    expect(asked.embeddings).toHaveLength(2);
    expect(seen).toContainEqual({ kind: 'embedding', priority: 'low', task: 'reindex', preemptible: false });
    expect(seen).not.toContainEqual(expect.objectContaining({ priority: 'normal' }));
    expect(asked.warnings).toEqual([]);
    const odd = await embedMany({ model, values: ['a'], providerOptions: { inkling: { prio: 'low' } } });
    expect(odd.embeddings).toHaveLength(1);
    expect(odd.warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', feature: 'providerOptions.inkling.prio' }));
    expect(seen).toContainEqual({ kind: 'embedding', priority: 'high', task: 'index', preemptible: true });
    const withHeader = await embedMany({ model, values: ['a'], headers: { 'x-trace': '1' } });
    expect(withHeader.warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', feature: 'headers' }));
  });

  it("tool calls get the kit's own ids: two calls with one model id are two calls, each answered", async () => {
    const requests: StreamingChatCompletionRequest[] = [];
    const calls = [
      { id: 'same', type: 'function' as const, function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
      { id: 'same', type: 'function' as const, function: { name: 'weather', arguments: '{"city":"Lima"}' } },
    ];
    const engine: Engine = {
      interruptGenerate: () => {},
      chat: {
        completions: {
          create: async (request) => {
            requests.push(structuredClone(request));
            const chunk: ChatCompletionChunk =
              requests.length === 1
                ? { id: 'c', choices: [{ delta: { tool_calls: calls }, finish_reason: 'tool_calls' }] }
                : { id: 'c', choices: [{ delta: { content: 'Sunny in both.' }, finish_reason: 'stop' }] };
            return (async function* () {
              yield chunk;
            })();
          },
        },
      },
    };
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const result = await generateText({
      model: createInkling({ pool })('fake'),
      prompt: 'Weather in Oslo and Lima',
      tools: { weather: tool({ inputSchema: z.object({ city: z.enum(['Oslo', 'Lima']) }), execute }) },
      stopWhen: stepCountIs(2),
    });
    const ids = result.steps[0]?.toolCalls.map((c) => c.toolCallId) ?? [];
    expect(new Set(ids).size).toBe(2);
    expect(result.steps[0]?.toolResults.map((r) => [r.toolCallId, (r.output as { city: string }).city])).toEqual([
      [ids[0], 'Oslo'],
      [ids[1], 'Lima'],
    ]);
    const read = requests[1]?.messages ?? [];
    const asked = ((read.find((m) => m.tool_calls)?.tool_calls ?? []) as Array<{ id: string }>).map((c) => c.id);
    expect(read.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(asked);
    expect(new Set(asked).size).toBe(2);
  });

  it('embedMany through the embedding model', async () => {
    const { inkling } = await ready();
    const { embeddings } = await embedMany({ model: inkling.embeddingModel('fake'), values: ['a', 'bb', 'ccc'] });
    expect(embeddings).toHaveLength(3);
    expect(embeddings[0]).toHaveLength(8);
  });
});
