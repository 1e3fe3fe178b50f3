import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { installPrefixReuse } from '../src/worker/prefixReuse.js';
import { checkPipeline } from '../src/worker/prefixReuseCheck.js';

/**
 * A pipeline with WebLLM 0.2.79's semantics where the hooks meet it, written
 * in the same property names (the guard reads them): `kv` is what the KV cache
 * really holds, so a test sees what the model would attend to.
 */
class Pipeline {
  filledKVCacheLength = 0;
  slidingWindowSize = -1;
  kvCache = { name: 'paged-kv' };
  kv: number[] = [];
  prompt: Array<number[] | string> = [];
  forwarded: number[][] = [];
  tvm = {
    scopes: 0,
    beginScope: () => void (this.tvm.scopes += 1),
    endScope: () => void (this.tvm.scopes -= 1),
    detachFromCurrentScope: <T>(value: T) => value,
    scalar: (value: number, dtype: string) => ({ value, dtype }),
    getGlobalFunc: (name: string) => {
      if (this.tvm.scopes === 0) throw new Error('no scope');
      if (name !== 'vm.builtin.kv_state_popn' || this.noPopN) throw new Error(`Cannot find global function ${name}`);
      return (_cache: unknown, _seq: unknown, n: { value: number }) => {
        if (this.failPop) throw new Error('popn failed');
        this.kv.splice(this.kv.length - n.value, n.value);
      };
    },
  };
  noPopN = false;
  failPop = false;

  fclearKVCaches() {
    this.kv = [];
  }

  resetChat() {
    this.resetKVCache();
    this.filledKVCacheLength = 0;
  }

  resetKVCache() {
    this.fclearKVCaches();
  }

  getInputData() {
    if (this.filledKVCacheLength === 0)
      return [this.getPromptArray().length === 0 ? this.prompt.map((p) => (typeof p === 'string' ? p : [...p])) : [], 0];
    return [[this.getPromptArrayLastRound()], 0];
  }

  getConversationObject(): unknown {
    return undefined;
  }

  setConversation(_conversation: unknown): void {}

  getPromptArrayLastRound(): number[] {
    return [];
  }

  getPromptArray(): unknown[] {
    return [];
  }

  async embedAndForward(inputData: Array<number[] | string>, length: number) {
    for (const d of inputData)
      if (Array.isArray(d)) this.kv.push(...d);
      else this.kv.push(-1);
    this.forwarded.push(inputData.flatMap((d) => (Array.isArray(d) ? d : [-1])));
    this.filledKVCacheLength += length;
    return 'logits';
  }

  /** What WebLLM's prefillStep does with the hooks in place. */
  async prefill(tokens: Array<number[] | string>): Promise<void> {
    this.prompt = tokens;
    const [inputData] = this.getInputData() as [Array<number[] | string>];
    const length = inputData.reduce((n, d) => n + (Array.isArray(d) ? d.length : 1), 0);
    const before = this.filledKVCacheLength;
    await this.embedAndForward(inputData, length);
    if (this.filledKVCacheLength !== before + length) throw new Error('Internal Error: filledKVCacheLength does not match expected value.');
  }
}

/** An engine whose `prefill` resets the chat for a request that is not a continuation, as WebLLM's does. */
class Engine {
  loadedModelIdToPipeline = new Map<string, Pipeline>();
  constructor(readonly pipeline = new Pipeline()) {
    this.loadedModelIdToPipeline.set('m', pipeline);
  }
  prefill(input: unknown, pipeline: Pipeline) {
    const oldConv = pipeline.getConversationObject();
    if (!oldConv) {
      pipeline.resetChat();
      pipeline.setConversation(input);
    }
  }
  /** One request: the engine's reset, then the pipeline's prefill of `tokens`. */
  async request(reuse: ReturnType<typeof installPrefixReuse>, tokens: Array<number[] | string>, continuation = false) {
    reuse.arm();
    if (!continuation) this.pipeline.resetChat();
    await this.pipeline.prefill(tokens);
    // The model's reply: one decoded token, as decodeStep forwards it.
    await this.pipeline.embedAndForward([[900]], 1);
  }
}

const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('prefix reuse on a pipeline with WebLLM 0.2.79 semantics', () => {
  it('keeps the common prefix, pops the rest and prefills only the tail; the cache then holds exactly the new prompt', async () => {
    const engine = new Engine();
    const reuse = installPrefixReuse(engine, 'm');
    expect(reuse).toMatchObject({ active: true, reason: undefined });
    const first = seq(1, 50);
    await engine.request(reuse, [first]);
    expect(reuse.last).toEqual({ cachedTokens: 0, prefilledTokens: 50 });
    // Typing at the end: 50 shared tokens, 3 new ones; the reply token (900) is popped.
    const second = [...first, 51, 52, 53];
    await engine.request(reuse, [second]);
    expect(reuse.last).toEqual({ cachedTokens: 50, prefilledTokens: 3 });
    expect(engine.pipeline.forwarded.at(-2)).toEqual([51, 52, 53]);
    expect(engine.pipeline.kv).toEqual([...second, 900]);
    // An edit in the middle: the prefix up to the edit is kept, everything after it read again.
    const third = [...second.slice(0, 20), 77, ...second.slice(20)];
    await engine.request(reuse, [third]);
    expect(reuse.last).toEqual({ cachedTokens: 20, prefilledTokens: third.length - 20 });
    expect(engine.pipeline.kv).toEqual([...third, 900]);
    expect(engine.pipeline.filledKVCacheLength).toBe(third.length + 1);
  });

  it('always prefills at least the last token (the same prompt twice), so the prefill still yields logits', async () => {
    const engine = new Engine();
    const reuse = installPrefixReuse(engine, 'm');
    await engine.request(reuse, [seq(1, 10)]);
    await engine.request(reuse, [seq(1, 10)]);
    expect(reuse.last).toEqual({ cachedTokens: 9, prefilledTokens: 1 });
    expect(engine.pipeline.kv).toEqual([...seq(1, 10), 900]);
  });

  it('is a full reset when switched off, for a prompt with an image, and when nothing is shared', async () => {
    const engine = new Engine();
    const reuse = installPrefixReuse(engine, 'm');
    await engine.request(reuse, [seq(1, 10)]);
    reuse.enabled = false;
    await engine.request(reuse, [seq(1, 12)]);
    expect(reuse.last).toEqual({ cachedTokens: 0, prefilledTokens: 12 });
    expect(engine.pipeline.kv).toEqual([...seq(1, 12), 900]);
    reuse.enabled = true;
    await engine.request(reuse, [seq(1, 5), 'image:cat', seq(6, 3)]);
    expect(reuse.last?.cachedTokens).toBe(0);
    expect(engine.pipeline.kv).toEqual([...seq(1, 5), -1, ...seq(6, 3), 900]);
    // After an image the record is unknown: the next request reads everything too.
    await engine.request(reuse, [seq(1, 9)]);
    expect(reuse.last).toEqual({ cachedTokens: 0, prefilledTokens: 9 });
    await engine.request(reuse, [seq(500, 4)]);
    expect(reuse.last).toEqual({ cachedTokens: 0, prefilledTokens: 4 });
    expect(engine.pipeline.kv).toEqual([...seq(500, 4), 900]);
  });

  it("leaves WebLLM's own multi-round continuation alone and counts what it kept", async () => {
    const engine = new Engine();
    const reuse = installPrefixReuse(engine, 'm');
    await engine.request(reuse, [seq(1, 10)]);
    await engine.request(reuse, [seq(20, 4)], true);
    expect(reuse.last).toEqual({ cachedTokens: 11, prefilledTokens: 0 });
  });

  it('never reads a prompt on top of stale tokens: a cache changed behind its back, or a failed pop, ends in a real reset', async () => {
    const engine = new Engine();
    const reuse = installPrefixReuse(engine, 'm');
    await engine.request(reuse, [seq(1, 10)]);
    // Something forwards tokens without the hooks seeing them (a path this WebLLM has that they do not know).
    engine.pipeline.filledKVCacheLength += 2;
    engine.pipeline.kv.push(7, 7);
    await engine.request(reuse, [seq(1, 12)]);
    expect(reuse.last?.cachedTokens).toBe(0);
    expect(engine.pipeline.kv).toEqual([...seq(1, 12), 900]);
    engine.pipeline.failPop = true;
    await engine.request(reuse, [seq(1, 4)]);
    expect(engine.pipeline.kv).toEqual([...seq(1, 4), 900]);
    expect(reuse).toMatchObject({ active: false, enabled: false });
    expect(reuse.reason).toMatch(/popn failed/);
  });

  it('says why it is off: a sliding window, no kv_state_popn, no pipeline', () => {
    const sliding = new Engine();
    sliding.pipeline.slidingWindowSize = 4096;
    expect(installPrefixReuse(sliding, 'm').reason).toMatch(/sliding window/);
    const noPop = new Engine();
    noPop.pipeline.noPopN = true;
    expect(installPrefixReuse(noPop, 'm').reason).toMatch(/kv_state_popn/);
    expect(installPrefixReuse(new Engine(), 'other').reason).toMatch(/pipeline elsewhere/);
  });
});

/** The class named `name` in a bundled WebLLM's lib/index.js, evaluated on its own (its methods are only read). */
function classFrom(source: string, name: string): { prototype: Record<string, unknown> } {
  const start = source.indexOf(`\nclass ${name} {`);
  if (start < 0) throw new Error(`no class ${name} in WebLLM's bundle`);
  const end = source.indexOf('\n}\n', start);
  return new Function(`${source.slice(start, end + 2)}\nreturn ${name};`)() as { prototype: Record<string, unknown> };
}

const read = (path: string) => readFileSync(path, 'utf8').replaceAll('\r\n', '\n');
const tvmLike = { getGlobalFunc() {}, scalar() {}, detachFromCurrentScope() {}, beginScope() {}, endScope() {} };

/** A pipeline object carrying the real methods of `source`'s LLMChatPipeline, and the engine's real prefill. */
function realShapes(source: string) {
  const RealPipeline = classFrom(source, 'LLMChatPipeline');
  const RealEngine = classFrom(source, 'MLCEngine');
  const methods = Object.fromEntries(
    ['resetChat', 'resetKVCache', 'embedAndForward', 'getInputData'].map((m) => [m, RealPipeline.prototype[m]]),
  );
  return {
    pipeline: { ...methods, filledKVCacheLength: 0, kvCache: {}, slidingWindowSize: -1, tvm: tvmLike },
    engine: RealEngine.prototype,
  };
}

describe("the guard, on WebLLM's real source (at build time: a WebLLM it was not written for is refused)", () => {
  const require = createRequire(import.meta.url);
  // 0.2.79: the version the real-engine runs measured (tools/real-engine pins it); 0.2.86: what this package builds against.
  const v079 = read(require.resolve('../../../tools/real-engine/node_modules/web-llm-0.2.79/lib/index.js'));
  const v086 = read(require.resolve('@mlc-ai/web-llm'));

  it("accepts WebLLM 0.2.79's LLMChatPipeline and MLCEngine.prefill", () => {
    const { pipeline, engine } = realShapes(v079);
    expect(checkPipeline(pipeline, engine)).toBeUndefined();
  });

  it('accepts WebLLM 0.2.86, whose prefill resets the chat in preparePrefillInput; refuses its artifact models', () => {
    const { pipeline, engine } = realShapes(v086);
    expect(checkPipeline(pipeline, engine)).toBeUndefined();
    expect(checkPipeline({ ...pipeline, artifact: {} }, engine)).toMatch(/artifact models/);
  });

  it('refuses an engine whose prefill no longer resets the chat where the hooks look', () => {
    const { pipeline, engine } = realShapes(v086);
    const moved = { prefill: engine.prefill, preparePrefillInput() {} };
    expect(checkPipeline(pipeline, moved)).toMatch(/preparePrefillInput\(\) does not do what the hooks expect/);
    expect(checkPipeline(pipeline, { prefill: engine.prefill })).toMatch(/calls a preparePrefillInput\(\) it does not have/);
    expect(checkPipeline(pipeline, { prefill() {} })).toMatch(/engine prefill\(\) does not do what the hooks expect/);
  });

  it('refuses a pipeline whose methods no longer do what the hooks expect', () => {
    const { pipeline, engine } = realShapes(v079);
    const changed = {
      ...pipeline,
      resetChat() {
        // A future WebLLM that clears the cache some other way.
      },
    };
    expect(checkPipeline(changed, engine)).toMatch(/resetChat\(\) does not do what the hooks expect/);
    expect(checkPipeline({ ...pipeline, rnnState: {} }, engine)).toMatch(/recurrent state/);
    expect(checkPipeline({ ...pipeline, slidingWindowSize: 1024 }, engine)).toMatch(/sliding window/);
  });
});
