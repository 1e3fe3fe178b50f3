import {
  type BuiltInAIGlobals,
  BuiltInAIUnavailableError,
  BuiltInDownloadStalledError,
  BuiltInGestureRequiredError,
  UnsupportedLanguageError,
  detectBuiltInAI,
  preferBuiltIn,
  promptEngines,
  translatorEngines,
} from '@inkling/browser-ai';
import { BUILT_IN_SURFACE, createFakeBuiltInAI } from '@inkling/browser-ai/testing';
import { EnginePool } from '@inkling/scheduler';
import { chooseEngines, wllamaEngines } from '@inkling/wllama';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';

// This Chromium's real APIs, as it answers them here (offline, no model on disk):
// the Prompt API and the language detector 'unavailable', en→fr 'downloadable', and
// Translator.create() for that pair pending for ever.
const real = globalThis as unknown as Record<
  'LanguageModel' | 'Translator' | 'LanguageDetector',
  { prototype: object } & Record<string, unknown>
>;

/** The real globals, with every create() counted: nothing may download unless a person asks. */
function counted() {
  const creates = { LanguageModel: 0, Translator: 0, LanguageDetector: 0 };
  const wrap = (name: keyof typeof creates) => {
    const api = real[name] as unknown as { availability: (o?: unknown) => Promise<string>; create: (o?: unknown) => Promise<unknown> };
    return {
      availability: (o?: unknown) => api.availability(o),
      create: (o?: unknown) => {
        creates[name] += 1;
        return api.create(o);
      },
    };
  };
  const globals = {
    LanguageModel: wrap('LanguageModel'),
    Translator: wrap('Translator'),
    LanguageDetector: wrap('LanguageDetector'),
    document,
  } as unknown as BuiltInAIGlobals;
  return { globals, creates };
}

const cpu = () => ({
  kind: 'cpu' as const,
  reason: 'No WebGPU here: llama.cpp on the CPU.',
  createEngine: () => Promise.reject(new Error('not built in this test')),
});

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const frame of frames.splice(0)) frame.remove();
});

describe("Chromium's real built-in AI interfaces", () => {
  it('have every static and member the engines use, and the fake has nothing they lack', () => {
    const fake = createFakeBuiltInAI().globals as unknown as typeof real;
    for (const [name, surface] of Object.entries(BUILT_IN_SURFACE) as Array<[keyof typeof real, (typeof BUILT_IN_SURFACE)['Translator']]>) {
      const api = real[name];
      expect(api, `${name} in this Chromium`).toBeTypeOf('function');
      for (const method of surface.statics) expect(typeof api[method], `${name}.${method}`).toBe('function');
      for (const member of surface.members) expect(member in api.prototype, `${name}.prototype.${member}`).toBe(true);
      const fakeApi = fake[name];
      const realStatics = new Set(Object.getOwnPropertyNames(api));
      const realMembers = new Set(Object.getOwnPropertyNames(api.prototype));
      for (const method of Object.getOwnPropertyNames(fakeApi).filter((n) => !['length', 'name', 'prototype'].includes(n))) {
        expect(realStatics.has(method), `the fake's ${name}.${method} exists on Chromium's`).toBe(true);
      }
      for (const member of Object.getOwnPropertyNames(fakeApi.prototype).filter((n) => n !== 'constructor')) {
        expect(realMembers.has(member), `the fake's ${name}.prototype.${member} exists on Chromium's`).toBe(true);
      }
      // And the fake has what the engines use.
      for (const member of surface.members) expect(member in fakeApi.prototype, `the fake's ${name}.prototype.${member}`).toBe(true);
    }
    // The browser's refusal of an over-long input, which the engines read when they could not measure first.
    const quotaError = (globalThis as unknown as { QuotaExceededError?: { prototype: object } }).QuotaExceededError;
    expect(quotaError, 'QuotaExceededError in this Chromium').toBeTypeOf('function');
    for (const member of ['quota', 'requested'])
      expect(member in quotaError!.prototype, `QuotaExceededError.prototype.${member}`).toBe(true);
  });

  it("names the Prompt API's limits as Chrome 148 and later do, the names the engines read first", () => {
    const session = real.LanguageModel.prototype;
    for (const current of ['contextWindow', 'contextUsage', 'measureContextUsage'])
      expect(current in session, `LanguageModel.prototype.${current}`).toBe(true);
    // The older names (138 to 147, the origin trial) are gone here: only the fallback reads them, on the fake's older shapes.
    for (const old of ['inputQuota', 'inputUsage', 'measureInputUsage', 'maxTokens', 'tokensSoFar', 'tokensLeft']) {
      expect(old in session, `LanguageModel.prototype.${old}`).toBe(false);
    }
    for (const limits of ['input', 'tokens', 'none'] as const) {
      const fake = createFakeBuiltInAI({ limits }).globals as unknown as typeof real;
      for (const current of ['contextWindow', 'contextUsage', 'measureContextUsage'])
        expect(current in fake.LanguageModel.prototype).toBe(false);
    }
  });

  it("detectBuiltInAI reports this browser's real answers, and the chooser decides from them, without a single create()", async () => {
    const { globals, creates } = counted();
    const probe = await detectBuiltInAI({ globals });
    expect(probe.prompt).toMatchObject({ state: 'unavailable', usable: false });
    expect(probe.prompt.reason).toMatch(/cannot run on this device/);
    expect(probe.translation).toMatchObject({ state: 'downloadable', usable: true });
    expect(probe.translation.reason).toMatch(/one-time download .* when you ask/);
    expect(probe.languageDetection).toMatchObject({ state: 'unavailable', usable: false });
    const translation = preferBuiltIn({ probe, feature: 'translation', builtIn: () => translatorEngines({ globals }), otherwise: cpu });
    const prompt = preferBuiltIn({ probe, feature: 'prompt', builtIn: () => promptEngines({ globals }), otherwise: cpu });
    expect([translation.kind, prompt.kind]).toEqual(['built-in', 'cpu']);
    expect(prompt.reason).toMatch(/cannot run on this device.*llama\.cpp on the CPU/);
    expect(creates).toEqual({ LanguageModel: 0, Translator: 0, LanguageDetector: 0 });
  });

  it("composes with wllama's chooseEngines: built-in translation, and for prompts this browser's real WebGPU answer decides", async () => {
    const { globals } = counted();
    const probe = await detectBuiltInAI({ globals });
    const gpu = navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } };
    const adapter = await gpu.gpu?.requestAdapter().catch(() => null);
    const webgpu = { supported: Boolean(adapter), reason: adapter ? null : 'no WebGPU adapter (this Chromium runs with --disable-gpu)' };
    const otherwise = () =>
      chooseEngines({
        probe: webgpu,
        webgpu: () => () => Promise.reject(new Error('not loaded in this test')),
        cpu: () => wllamaEngines({ model: '/never-fetched.gguf', wasmUrl: '/never-fetched.wasm' }),
      });
    const translation = preferBuiltIn({ probe, feature: 'translation', builtIn: () => translatorEngines({ globals }), otherwise });
    const prompt = preferBuiltIn({ probe, feature: 'prompt', builtIn: () => promptEngines({ globals }), otherwise });
    expect(translation.kind).toBe('built-in');
    expect(prompt.kind).toBe(webgpu.supported ? 'webgpu' : 'cpu');
    expect(prompt.reason).toMatch(/Prompt API\) cannot run on this device.*(running llama\.cpp on the CPU|running WebLLM on the GPU)/);
    expect(prompt.builtInReason).toBe(probe.prompt.reason);
  });

  it('absent APIs (a browser without them) fail the load typed, at once', async () => {
    const probe = await detectBuiltInAI({ globals: {} });
    expect(probe.prompt.state).toBe('absent');
    expect(probe.prompt.reason).toMatch(/not in this browser: it ships in desktop Chrome and Edge/);
    for (const createEngine of [promptEngines({ globals: {} }), translatorEngines({ globals: {} })]) {
      const error = await new EnginePool({ size: 1, createEngine }).load().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BuiltInAIUnavailableError);
      expect(error).toMatchObject({ reason: 'absent' });
    }
  });

  it('a permissions policy that blocks the APIs (an iframe without allow) is told apart', async () => {
    const frame = document.createElement('iframe');
    frame.setAttribute('allow', "language-model 'none'; translator 'none'; language-detector 'none'");
    frames.push(frame);
    document.body.append(frame);
    const globals = frame.contentWindow as unknown as BuiltInAIGlobals;
    const probe = await detectBuiltInAI({ globals });
    expect([probe.prompt.state, probe.translation.state, probe.languageDetection.state]).toEqual(['blocked', 'blocked', 'blocked']);
    const error = await new EnginePool({ size: 1, createEngine: translatorEngines({ globals }) }).load().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BuiltInAIUnavailableError', reason: 'blocked' });
    expect((error as Error).message).toMatch(/permissions policy: allow "translator"/);
  });

  it("the Prompt API's 'unavailable' fails the load typed and never calls create()", async () => {
    const { globals, creates } = counted();
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals }) });
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuiltInAIUnavailableError);
    expect(error).toMatchObject({ api: 'LanguageModel', reason: 'unavailable' });
    expect(pool.getSnapshot().phase).toBe('error');
    expect(creates.LanguageModel).toBe(0);
  });

  it("'downloadable' en→fr: a job never starts the download, each bad pair fails only its item, typed and named", async () => {
    const { globals, creates } = counted();
    const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals }) });
    await pool.load();
    const [fr, xx, invalid, undetected] = await Promise.all([
      pool.submit({ kind: 'translation', params: { text: 'Good morning', from: 'en', to: 'fr' } }),
      pool.submit({ kind: 'translation', params: { text: 'Good morning', from: 'en', to: 'xx' } }),
      pool.submit({ kind: 'translation', params: { text: 'Good morning', from: 'en', to: 'not a language' } }),
      pool.submit({ kind: 'translation', params: { text: 'Good morning', to: 'fr' } }),
    ]);
    expect(fr.error).toMatchObject({ name: 'UnsupportedLanguageError', from: 'en', to: 'fr', reason: 'download' });
    expect(xx.error).toMatchObject({ name: 'UnsupportedLanguageError', from: 'en', to: 'xx', reason: 'unavailable' });
    expect(xx.error?.message).toMatch(/en→xx/);
    expect(invalid.error).toMatchObject({ reason: 'invalid' });
    expect(invalid.error?.message).toMatch(/Invalid language tag/);
    expect(undetected.error).toBeInstanceOf(UnsupportedLanguageError);
    expect(undetected.error).toMatchObject({ reason: 'undetected' });
    expect(undetected.error?.message).toMatch(/give "from"/);
    expect(creates).toEqual({ LanguageModel: 0, Translator: 0, LanguageDetector: 0 });
    expect(pool.getSnapshot()).toMatchObject({ phase: 'ready', size: 1 });
    await pool.unload();
  });

  it("a load without a person's click is refused by Chrome for a download, and says to load from a click", async () => {
    const { globals } = counted();
    const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals, languages: [{ from: 'en', to: 'fr' }] }) });
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuiltInGestureRequiredError);
    expect((error as Error).message).toMatch(/only when a person clicks or presses a key: call pool\.load\(\) from the click handler/);
  });

  it('a load from a click that asks for the en→fr download, which cannot progress offline, ends typed within its bound', async () => {
    const { globals, creates } = counted();
    const pool = new EnginePool({
      size: 1,
      createEngine: translatorEngines({ globals, languages: [{ from: 'en', to: 'fr' }], downloadStallMs: 1500 }),
    });
    expect(creates.Translator).toBe(0);
    const { loading, started } = await loadOnClick(pool);
    const error = await loading.catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(creates.Translator).toBe(1);
    expect(error).toBeInstanceOf(BuiltInDownloadStalledError);
    expect((error as Error).message).toMatch(/en→fr translator made no download progress in 1500 ms: check that the device is online/);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(5000);
    expect(pool.getSnapshot().phase).toBe('error');
  });

  it('cancelling that download (unload while it loads) settles the load at once', async () => {
    const { globals, creates } = counted();
    const pool = new EnginePool({
      size: 1,
      createEngine: translatorEngines({ globals, languages: [{ from: 'en', to: 'fr' }], downloadStallMs: Infinity }),
    });
    let settled = false;
    const { loading } = await loadOnClick(pool);
    void loading.finally(() => (settled = true)).catch(() => 0);
    await new Promise((r) => setTimeout(r, 500));
    // Chrome's create() is pending: the download was asked for and cannot progress.
    expect(creates.Translator).toBe(1);
    expect(settled).toBe(false);
    const cancelledAt = performance.now();
    await pool.unload();
    await loading.catch(() => 0);
    expect(performance.now() - cancelledAt).toBeLessThan(200);
    expect(pool.getSnapshot().phase).toBe('idle');
  });
});

/** Loads the pool from a real click (Chrome downloads only on a person's gesture). */
async function loadOnClick(pool: EnginePool): Promise<{ loading: Promise<number>; started: number }> {
  const button = document.createElement('button');
  button.textContent = 'Download';
  document.body.append(button);
  let loading: Promise<number> | undefined;
  let started = 0;
  button.addEventListener('click', () => {
    started = performance.now();
    loading = pool.load();
  });
  await userEvent.click(button);
  button.remove();
  if (!loading) throw new Error('the click did not reach the button');
  return { loading, started };
}
