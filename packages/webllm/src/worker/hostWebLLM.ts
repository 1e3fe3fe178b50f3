import { answerCall, encodeError, isCallMessage } from '@inkling/scheduler/engine';
import { checkWebGPU, isSoftwareAdapter } from './checkWebGPU.js';
import { classifyLoadError, classifyRunError } from './classifyError.js';
import type { GPULike } from '../detectWebGPU.js';
import { modelNotFound } from '../errors.js';
import { ProgressMapper } from '../progressMapper.js';
import { installGreedyPick } from './greedyPick.js';
import { type Lanes, installLanes, noLanes } from './laneEngine.js';
import { type GrammarPipeline, type LaneGrammars, type XGrammar, noGrammars, startGrammars } from './laneGrammar.js';
import { checkLanePipeline } from './lanePipeline.js';
import { pipelineOf } from './webllmPipeline.js';
import { type PrefixReuse, installPrefixReuse, noPrefixReuse } from './prefixReuse.js';
import {
  type LoadAnswer,
  type LoadSettings,
  PROTOCOL,
  type PageMessage,
  type WorkerCalls,
  type WorkerMessage,
  isHello,
} from '../protocol.js';
import { resolveAppConfig } from '../resolveAppConfig.js';
import type { WebLLMAppConfig, WebLLMEngineLike, WebLLMProgressReport } from '../types.js';
import { WorkerStreams } from './workerStreams.js';
import { type HostWebLLMOptions, type WebLLMEngineModule, type WorkerEndpoint, validateHostOptions } from './hostOptions.js';

/**
 * Why reuse stays off on a software adapter: on SwiftShader the first token's
 * log-probabilities of a reused prefill differed from a full prefill's by
 * 7.9e-2 after an edit mid-note and 5.9e-2 after typing at the end
 * (`pnpm verify:prefix-reuse`), where the H200 agrees to 3.4e-7. Until that is
 * understood, such an adapter reads every prompt whole.
 */
const SOFTWARE_ADAPTER =
  'the GPU adapter is a software one (SwiftShader or the like), where reuse has not been shown to give the same results as a full prefill';

/**
 * Serves one WebLLM engine over Inkling's worker protocol: the engine worker's
 * half of `webllmEngines`. `@inkling/webllm/worker` calls it with the worker's
 * global scope and the WebLLM it bundles; call it yourself to run another
 * WebLLM version in the peer range, or in a Node worker thread.
 *
 * The work that needs WebLLM's knowledge happens here, so the page never
 * carries it: before a load the worker finds the model's record and checks
 * WebGPU; WebLLM's progress reports become one overall fraction; WebLLM's
 * errors become Inkling's typed errors (`ModelFetchError`, `OutOfMemoryError`,
 * `GPUDeviceLostError`...), which cross with their message and fields.
 *
 * The page pulls each chunk (`pull`), and the worker asks WebLLM for the next
 * one only then, so a decode step never starts after a cancel: a cancel from
 * the chunk callback costs no token, one from a timer at most the step in
 * flight. An interrupt reaches WebLLM only while a generation runs (so
 * WebLLM before 0.2.86 never keeps one for the next generation); one that
 * WebLLM cleared as the generation started is repeated by the pool on the
 * next chunk (`runJob`), and the worker passes the repeat on before it runs
 * another step. A stream stopped before its first pull never starts; one the
 * page left is read to its end, so WebLLM's lock is always released.
 *
 * Prefix reuse (on unless the load says `prefixReuse: false`): the worker
 * keeps the longest common token prefix of the KV cache between requests and
 * prefills only the rest (`prefixReuse.ts`); the usage chunk says how many
 * prompt tokens came from the cache (`usage.cachedTokens`). Where the model
 * or the WebLLM version cannot (a sliding window, a runtime without
 * `kv_state_popn`, a pipeline it was not written for, a software GPU
 * adapter), every request is a full reset as in WebLLM, and the load log
 * says why once.
 *
 * Greedy requests (temperature 0: ghost text, translation) have each token
 * picked in one pass over the logits instead of TVM's sort of the whole
 * vocabulary (`greedyPick.ts`), where the WebLLM version picks on the CPU;
 * the same line of the load log says whether.
 *
 * @example
 * // my-engine-worker.ts
 * import { hostWebLLM } from '@inkling/webllm';
 * import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
 * hostWebLLM(globalThis as never, { MLCEngine, prebuiltAppConfig });
 */
export function hostWebLLM(endpoint: WorkerEndpoint, webllm: WebLLMEngineModule, options: HostWebLLMOptions = {}): void {
  validateHostOptions(options);
  // A worker's scope or a thread's port, not a window: there is no target origin.
  // oxlint-disable-next-line unicorn/require-post-message-target-origin
  const host = new EngineHost(webllm, options, (message) => endpoint.postMessage(message));
  endpoint.addEventListener('message', (event) => host.receive(event.data as PageMessage));
}

class EngineHost {
  readonly #webllm: WebLLMEngineModule;
  readonly #gpu: GPULike | null | undefined;
  readonly #xgrammar: (() => Promise<XGrammar>) | null;
  readonly #tune: NonNullable<HostWebLLMOptions['lanes']>;
  readonly #post: (message: WorkerMessage) => void;
  readonly #streams: WorkerStreams;
  #engine: WebLLMEngineLike | undefined;
  #reuse: PrefixReuse = noPrefixReuse('no model is loaded');
  #lanes: Lanes = noLanes('no model is loaded');

  constructor(webllm: WebLLMEngineModule, options: HostWebLLMOptions, post: (message: WorkerMessage) => void) {
    this.#webllm = webllm;
    this.#gpu = options.gpu;
    this.#xgrammar = options.xgrammar ?? null;
    this.#tune = options.lanes ?? {};
    this.#post = post;
    this.#streams = new WorkerStreams({
      loaded: () => this.#loaded(),
      engine: () => this.#engine,
      lanes: () => this.#lanes,
      reuse: () => this.#reuse,
      post,
      fail: (rid, reason) => this.#fail(rid, reason),
    });
  }

  receive(message: PageMessage): void {
    if (isHello(message)) return this.#post({ type: 'hello', id: message.id, protocol: PROTOCOL });
    if (isCallMessage(message)) return this.#call(message.rid, message.op, message.input);
    if (typeof message !== 'object' || message === null || typeof message.rid !== 'number') return undefined;
    switch (message.t) {
      case 'pull':
        return this.#streams.pull(message.rid);
      case 'interrupt':
        return this.#streams.stop(message.rid, false);
      case 'close':
        return this.#streams.stop(message.rid, true);
      default:
        // A message of some other protocol: not ours to answer.
        return undefined;
    }
  }

  #call(rid: number, op: string, input: unknown): void {
    switch (op) {
      case 'load':
        return this.#answer(rid, () => this.#load(rid, input as LoadSettings));
      case 'chat': {
        const { request, priority } = input as WorkerCalls['chat'];
        this.#streams.open(rid, request, priority === 'interactive');
        return undefined;
      }
      case 'embed':
        return this.#answer(rid, () => this.#loaded().embeddings.create(input as WorkerCalls['embed']));
      case 'unload':
        return this.#answer(rid, () => this.#unload());
      default:
        return this.#fail(rid, new Error(`The engine worker has no call "${op}".`));
    }
  }

  #answer(rid: number, run: () => Promise<unknown>): void {
    void answerCall(rid, run, this.#post, (reason) => encodeError(classifyRunError(reason)));
  }

  /** Answers call `rid` with the typed error for `reason` (a typed one passes as it is). */
  #fail(rid: number, reason: unknown): void {
    this.#post({ t: 'reply', rid, error: encodeError(classifyRunError(reason)) });
  }

  /**
   * Loads the model after checking that it can load here (a record for it,
   * WebGPU that suits it); answers with what the page needs to know of it.
   * Every failure is typed (`classifyLoadError`).
   */
  async #load(id: number, message: LoadSettings): Promise<LoadAnswer> {
    const { model } = message;
    const appConfig = resolveAppConfig(message.appConfig ?? (this.#webllm.prebuiltAppConfig as WebLLMAppConfig), message.cache);
    const record = appConfig.model_list.find((r) => r.model_id === model);
    if (!record) throw modelNotFound(model);
    try {
      const support = message.checkWebGPU ? await checkWebGPU(record, this.#gpu) : undefined;
      const progress = new ProgressMapper();
      const engine = new this.#webllm.MLCEngine({
        ...message.engineConfig,
        appConfig,
        initProgressCallback: (report: WebLLMProgressReport) => this.#post({ t: 'progress', rid: id, report: progress.map(report) }),
      } as never);
      // Set before the reload, so an unload during it reaches WebLLM and stops the downloads.
      this.#engine = engine;
      await engine.reload(model, message.chatOptions as never);
      this.#reuse =
        message.prefixReuse === false
          ? noPrefixReuse('turned off (prefixReuse: false)')
          : isSoftwareAdapter(support)
            ? noPrefixReuse(SOFTWARE_ADAPTER)
            : installPrefixReuse(engine, model);
      const greedy = installGreedyPick(engine, model);
      const grammars = await this.#startLanes(engine, model, message, support);
      const text = loadLog(this.#reuse, greedy, this.#lanes, grammars);
      this.#post({ t: 'progress', rid: id, report: progress.map({ progress: 1, text, timeElapsed: 0 }) });
    } catch (reason) {
      throw classifyLoadError(reason, model, record);
    }
    return {
      embeddings: record.model_type === 1,
      prefixReuse: this.#reuse.active,
      prefixReuseReason: this.#reuse.reason,
      lanes: this.#lanes.count,
      ...(this.#lanes.reason === undefined ? {} : { lanesReason: this.#lanes.reason }),
      ...(this.#lanes.active && this.#lanes.grammarOff !== undefined ? { grammarOff: this.#lanes.grammarOff } : {}),
    };
  }

  /**
   * Starts the lanes `message.lanes` asks for (one more kept for interactive work), with xgrammar's
   * matchers where this worker gives it; says what the JSON-schema jobs get.
   */
  async #startLanes(
    engine: object,
    model: string,
    message: LoadSettings,
    support: Awaited<ReturnType<typeof checkWebGPU>> | undefined,
  ): Promise<LaneGrammars> {
    const asked = message.lanes ?? 1;
    this.#lanes.dispose();
    // JSON-schema jobs take lanes where xgrammar loads (a matcher per row); else WebLLM's own path runs them.
    const pipeline = pipelineOf(engine, model);
    const grammars =
      asked > 1 && checkLanePipeline(pipeline) === undefined
        ? this.#xgrammar
          ? await startGrammars(this.#xgrammar, pipeline as GrammarPipeline)
          : noGrammars('this worker gives no xgrammar (hostWebLLM without its xgrammar option)')
        : noGrammars('no lanes');
    // `lanes: N` is N jobs of any band at once; the engine opens one sequence more, the lane the pool
    // keeps for interactive work (its last free lane), so a keystroke never waits behind N batch jobs.
    this.#lanes =
      asked > 1
        ? installLanes(engine, model, asked + 1, {
            model,
            prefixReuse: message.prefixReuse !== false && !isSoftwareAdapter(support),
            grammars,
            ...this.#tune,
          })
        : noLanes('one lane asked (lanes: 1)');
    if (!this.#lanes.active) grammars.dispose();
    return grammars;
  }

  async #unload(): Promise<void> {
    const engine = this.#engine;
    this.#engine = undefined;
    this.#reuse = noPrefixReuse('no model is loaded');
    this.#lanes.dispose();
    this.#lanes = noLanes('no model is loaded');
    await engine?.unload();
  }

  #loaded(): WebLLMEngineLike {
    if (this.#engine) return this.#engine;
    const error = new Error('No model is loaded in this engine worker (it was unloaded, or never loaded).');
    error.name = 'EngineNotLoadedError';
    throw error;
  }
}

/** The load log's last line: what the loaded engine does with prefixes, greedy tokens, lanes and schemas. */
function loadLog(reuse: PrefixReuse, greedy: ReturnType<typeof installGreedyPick>, lanes: Lanes, grammars: LaneGrammars): string {
  const schemaJobs = grammars.active
    ? 'JSON-schema jobs on the lanes, an xgrammar matcher per row'
    : `JSON-schema jobs on WebLLM's one-sequence path: ${grammars.reason ?? 'no grammars'}`;
  return [
    reuse.active ? 'Prefix reuse: on.' : `Prefix reuse: off, ${reuse.reason ?? 'not available'}; every request reads its whole prompt.`,
    greedy.active ? 'Greedy tokens: one pass.' : `Greedy tokens: as WebLLM picks them (${greedy.reason ?? 'not available'}).`,
    lanes.active
      ? `Lanes: ${lanes.count - 1} and 1 kept for interactive work (one batch_decode step for every running job; greedy rows picked on the ${lanes.greedyPick.toUpperCase()}; ${schemaJobs}).`
      : `Lanes: off, ${lanes.reason ?? 'not available'}; one generation at a time.`,
  ].join(' ');
}
