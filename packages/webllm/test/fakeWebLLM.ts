import { type FakeEngine, type FakeEngineOptions, createFakeEngine } from '@inkling/scheduler/testing';
import type { WebLLMAppConfig, WebLLMEngineModule } from '../src/index.js';

/** How a fake WebLLM behaves: the engine it runs once loaded, and how its loads go. */
export interface FakeWebLLMOptions extends FakeEngineOptions {
  /** Progress reports a load sends, as WebLLM words them. Default: a first visit (fetch, load, shaders). */
  loadSteps?: Array<{ text: string; progress: number }>;
  /** Delay before each load step, in ms. Default `1`. */
  stepMs?: number;
  /** Makes `reload` throw an error with this name and message (`"Name: message"`). */
  failLoad?: string;
  /** A pipeline object the engine keeps for the loaded model (as WebLLM's `loadedModelIdToPipeline`), e.g. the lanes' stand-in. */
  pipeline?: () => object;
}

export const FIRST_VISIT_STEPS = [
  { text: 'Start to fetch params', progress: 0 },
  { text: 'Fetching param cache[1/2]: 50MB fetched. 50% completed, 1 secs elapsed.', progress: 0.5 },
  { text: 'Fetching param cache[2/2]: 100MB fetched. 100% completed, 2 secs elapsed.', progress: 1 },
  { text: 'Loading model from cache[1/2]: 50MB loaded. 50% completed, 3 secs elapsed.', progress: 0.5 },
  { text: 'Loading model from cache[2/2]: 100MB loaded. 100% completed, 4 secs elapsed.', progress: 1 },
  { text: 'Loading GPU shader modules[10/20]: 50% completed, 5 secs elapsed.', progress: 0.5 },
  { text: 'Loading GPU shader modules[20/20]: 100% completed, 6 secs elapsed.', progress: 1 },
  { text: 'Finish loading on WebGPU - fake', progress: 1 },
];

/** An error as WebLLM's classes make them: `name` is the class name. */
export function named(text: string): Error {
  const match = /^([A-Za-z][A-Za-z0-9]*Error): ([\s\S]*)$/.exec(text);
  return Object.assign(new Error(match?.[2] ?? text), { name: match?.[1] ?? 'Error' });
}

interface EngineConfig {
  appConfig: WebLLMAppConfig;
  initProgressCallback(report: { progress: number; timeElapsed: number; text: string }): void;
  [extra: string]: unknown;
}

/**
 * WebLLM's `MLCEngine` over a fake engine from `@inkling/scheduler/testing`,
 * which behaves like WebLLM's (FIFO lock, interrupt flag, 0.2.79 or 0.2.86).
 */
export class FakeMLCEngine {
  readonly config: EngineConfig;
  readonly reloads: Array<{ model: string; chatOptions: unknown }> = [];
  engine: FakeEngine | undefined;
  /** Interrupts that reached the engine while no generation held its lock. */
  idleInterrupts = 0;
  /** WebLLM's map of loaded pipelines: filled only when the options give one. */
  loadedModelIdToPipeline: Map<string, object> | undefined;
  readonly chat = { completions: { create: (request: object) => this.#usable().chat.completions.create(request as never) } };
  readonly embeddings = {
    create: async (request: object) => {
      const record = this.config.appConfig.model_list.find((r) => r.model_id === this.reloads.at(-1)?.model);
      if (record?.model_type !== 1) throw named('Error: This model cannot embed.');
      const { embeddings } = this.#usable();
      return embeddings?.create(request as never);
    },
  };
  readonly #options: FakeWebLLMOptions;
  #deviceLost = false;
  #unloadedDuringLoad = false;
  #loading = false;

  constructor(config: EngineConfig, options: FakeWebLLMOptions) {
    this.config = config;
    this.#options = options;
  }

  async reload(model: string, chatOptions?: unknown): Promise<void> {
    this.reloads.push({ model, chatOptions });
    if (!this.config.appConfig.model_list.some((r) => r.model_id === model))
      throw named(`ModelNotFoundError: Cannot find model record in appConfig for ${model}.`);
    if (this.#options.failLoad) throw named(this.#options.failLoad);
    this.#loading = true;
    this.#unloadedDuringLoad = false;
    try {
      for (const step of this.#options.loadSteps ?? FIRST_VISIT_STEPS) {
        await new Promise((resolve) => setTimeout(resolve, this.#options.stepMs ?? 1));
        // Like WebLLM: unload() during reload aborts it, and reload resolves anyway.
        if (this.#unloadedDuringLoad) return;
        this.config.initProgressCallback({ ...step, timeElapsed: 0 });
      }
      this.engine = createFakeEngine(this.#options);
      if (this.#options.pipeline) this.loadedModelIdToPipeline = new Map([[model, this.#options.pipeline()]]);
    } finally {
      this.#loading = false;
    }
  }

  interruptGenerate(): void {
    if (this.engine && !this.engine.generating) this.idleInterrupts += 1;
    this.engine?.interruptGenerate();
  }

  async unload(): Promise<void> {
    if (this.#loading) this.#unloadedDuringLoad = true;
    await this.engine?.unload?.();
    this.engine = undefined;
  }

  /** The GPU device is lost: every later call fails as WebLLM's does. */
  loseDevice(): void {
    this.#deviceLost = true;
  }

  #usable(): FakeEngine {
    if (this.#deviceLost) throw named('DeviceLostError: The WebGPU device was lost.');
    if (!this.engine) throw named('ModelNotLoadedError: Model not loaded before trying to complete ChatCompletionRequest.');
    return this.engine;
  }
}

/** The fake's `prebuiltAppConfig`: one of WebLLM's prebuilt records, an f16 build. */
const PREBUILT: WebLLMAppConfig = {
  model_list: [
    {
      model: 'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      model_id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      model_lib:
        'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_48/Qwen2-0.5B-Instruct-q4f16_1-ctx4k_cs1k-webgpu.wasm',
      vram_required_MB: 944.62,
    },
  ],
};

/** A fake `@mlc-ai/web-llm` for `hostWebLLM`: its engines are `FakeMLCEngine`s, remembered in `engines`. */
export function fakeWebLLMModule(options: FakeWebLLMOptions = {}): WebLLMEngineModule & { engines: FakeMLCEngine[] } {
  const engines: FakeMLCEngine[] = [];
  class MLCEngine extends FakeMLCEngine {
    constructor(config?: never) {
      super(config as unknown as EngineConfig, options);
      engines.push(this);
    }
  }
  return { MLCEngine, prebuiltAppConfig: PREBUILT, engines } as unknown as WebLLMEngineModule & { engines: FakeMLCEngine[] };
}
