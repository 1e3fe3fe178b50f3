import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import type { ChatCompletionChunk, ChatJobSpec, JobResult, Pool, ToolCall } from '@inkling/scheduler';
import { chunkText } from '@inkling/scheduler/engine';
import { abortError, aiSdkError } from './aiSdkError.js';
import { callParams } from './callParams.js';
import { type InklingCallSettings, callSettings } from './scheduling.js';
import { finishReasonOf, usageOf } from './usage.js';

/**
 * The calls a result asked for, as the AI SDK's tool-call content. Each gets
 * an id of the kit's own (the job's id and the call's place), never the
 * model's: a model may repeat an id or send none, and the AI SDK matches
 * results and approvals by it.
 */
function toolCallsOf(result: JobResult): Array<Extract<LanguageModelV4Content, { type: 'tool-call' }>> {
  return (result.toolCalls ?? []).map((call: ToolCall, i) => ({
    type: 'tool-call',
    toolCallId: `call_${result.id}_${i}`,
    toolName: call.function.name,
    input: call.function.arguments || '{}',
  }));
}

/** The error a finished job is, to the AI SDK, or `undefined` when it is a result. */
function failureOf(result: JobResult, params: unknown): Error | undefined {
  if (result.status === 'error' && result.error) return aiSdkError(result.error, params);
  if (result.status === 'cancelled' && result.cancelReason === 'abort') return abortError();
  return undefined;
}

/**
 * An AI SDK language model (specification v4) over an Inkling pool: every
 * call is a job on the pool's scheduler, with the priority, session and
 * preemption its settings say. Made by `createInkling`.
 *
 * @example
 * const model = createInkling({ pool })('qwen', { session: 'support-chat' });
 * const { text, usage } = await generateText({ model, prompt: 'Say hi.' });
 */
export class InklingLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'inkling';
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #pool: Pool;
  readonly #settings: InklingCallSettings;

  constructor(pool: Pool, modelId: string, settings: InklingCallSettings = {}) {
    this.#pool = pool;
    this.modelId = modelId;
    this.#settings = settings;
  }

  #spec(options: LanguageModelV4CallOptions): { spec: ChatJobSpec; warnings: ReturnType<typeof callParams>['warnings'] } {
    const { params, warnings } = callParams(options);
    const { priority, session, task, preemptible } = callSettings(options, this.#settings);
    const spec: ChatJobSpec = { params, priority, preemptible: preemptible === true };
    if (session !== undefined) spec.session = session;
    if (task !== undefined) spec.task = task;
    if (options.abortSignal) spec.signal = options.abortSignal;
    return { spec, warnings };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { spec, warnings } = this.#spec(options);
    const result = await this.#pool.submit(spec);
    const failure = failureOf(result, spec.params);
    if (failure) throw failure;
    const content: LanguageModelV4Content[] = [];
    if (result.text) content.push({ type: 'text', text: result.text });
    content.push(...toolCallsOf(result));
    return {
      content,
      finishReason: finishReasonOf(result),
      usage: usageOf(result),
      warnings,
      request: { body: spec.params },
      response: { id: result.id, modelId: this.modelId },
    };
  }

  /**
   * Streams the job. The promise settles once the first token arrives or the
   * job ends, so a job that fails before any token (a bad schema, a server
   * that is down) rejects it, and the AI SDK's retries see the error.
   */
  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { spec, warnings } = this.#spec(options);
    let output!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({ start: (controller) => void (output = controller) });
    output.enqueue({ type: 'stream-start', warnings });
    let opened = false;
    let first!: () => void;
    const firstToken = new Promise<void>((resolve) => (first = resolve));
    const raw = options.includeRawChunks === true;
    const job = this.#pool.submit({
      ...spec,
      onChunk: (chunk: ChatCompletionChunk) => {
        if (raw) output.enqueue({ type: 'raw', rawValue: chunk });
        const delta = chunkText(chunk);
        if (!delta) return;
        if (!opened) {
          opened = true;
          output.enqueue({ type: 'response-metadata', id: chunk.id, modelId: this.modelId });
          output.enqueue({ type: 'text-start', id: 'text' });
          first();
        }
        output.enqueue({ type: 'text-delta', id: 'text', delta });
      },
    });
    const ended = job.then((result) => {
      const failure = failureOf(result, spec.params);
      if (failure && !opened) return failure;
      if (failure) {
        output.error(failure);
        return undefined;
      }
      if (opened) output.enqueue({ type: 'text-end', id: 'text' });
      for (const call of toolCallsOf(result)) output.enqueue(call);
      output.enqueue({ type: 'finish', finishReason: finishReasonOf(result), usage: usageOf(result) });
      output.close();
      return undefined;
    });
    const early = await Promise.race([firstToken.then(() => undefined), ended]);
    if (early) throw early;
    return { stream, request: { body: spec.params } };
  }
}
