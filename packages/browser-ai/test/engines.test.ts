import { EnginePool, type JobResult, LoadCancelledError, type PoolLoadProgress } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import {
  BuiltInAIUnavailableError,
  BuiltInDownloadStalledError,
  BuiltInGestureRequiredError,
  BuiltInLoadCancelledError,
  InputTooLongError,
  UnsupportedLanguageError,
  builtInEngines,
  detectBuiltInAI,
  preferBuiltIn,
  promptEngines,
  translatorEngines,
} from '../src/index.js';
import { createFakeBuiltInAI } from '../src/testing/index.js';

const user = (content: string) => ({ role: 'user' as const, content });
const cpu = () => ({ kind: 'cpu' as const, reason: 'No WebGPU: the CPU.', createEngine: async () => Promise.reject(new Error('unused')) });

const ghost = (text: string, session = 'note', max_tokens = 50) => ({
  session,
  priority: 'interactive' as const,
  params: {
    messages: [
      { role: 'system' as const, content: 'Continue the text.' },
      { role: 'user' as const, content: text },
    ],
    max_tokens,
  },
});

describe('promptEngines on a fake of the Prompt API', () => {
  it('clones the system prompt’s base session per job session, destroys the clone the next request replaces, and keeps a bounded number', async () => {
    const fake = createFakeBuiltInAI({ reply: (context) => `echo ${String(context.at(-1)?.content)}` });
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals, maxSessions: 2 }) });
    await pool.load();
    const first = await pool.submit(ghost('Hello'));
    expect(first).toMatchObject({ status: 'done', text: 'echo Hello' });
    // The root session (at load) and the base holding the system prompt: the prompt is read once.
    expect(fake.stats.sessionsCreated).toBe(2);
    expect(fake.stats.clones).toBe(1);
    expect((first.usage as { cachedTokens?: number }).cachedTokens).toBeGreaterThan(0);
    await pool.submit(ghost('Hello w'));
    // A new keystroke is a new prompt: its old clone destroyed, a new one cloned; no new base.
    expect(fake.stats).toMatchObject({ sessionsCreated: 2, clones: 2, sessionsDestroyed: 1 });
    for (const session of ['a', 'b', 'c']) await pool.submit(ghost('x', session));
    // At most two kept: root + base + 2 kept clones alive.
    expect(fake.stats.liveSessions).toBe(4);
    await pool.unload();
    expect(fake.stats.liveSessions).toBe(0);
  });

  it('continues a kept conversation with only what is new: append() for all but the last message, one prompt of the last', async () => {
    const fake = createFakeBuiltInAI({ reply: (context) => `reply ${context.length}` });
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
    await pool.load();
    const one = await pool.submit({ session: 'chat', params: { messages: [user('hi')] } });
    const assistant = { role: 'assistant' as const, content: one.text };
    await pool.submit({ session: 'chat', params: { messages: [user('hi'), assistant, user('and?'), assistant, user('more')] } });
    expect(fake.stats.clones).toBe(1);
    expect(fake.stats.appends).toBe(1);
    expect(fake.stats.prompts.at(-1)?.input).toEqual([user('more')]);
  });

  it('keeps max_tokens by stopping the stream, and passes a JSON Schema as responseConstraint', async () => {
    const fake = createFakeBuiltInAI({ reply: () => 'one two three four five six' });
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
    await pool.load();
    expect(await pool.submit(ghost('x', 's', 3))).toMatchObject({ status: 'done', text: 'one two three', finishReason: 'length' });
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    await pool.submit({
      params: { messages: [{ role: 'user', content: 'json' }], response_format: { type: 'json_schema', json_schema: { schema } } as never },
    });
    expect(fake.stats.prompts.at(-1)?.responseConstraint).toEqual(schema);
  });

  it('an over-long prompt is an InputTooLongError before the browser is asked, and the next job runs', async () => {
    const fake = createFakeBuiltInAI({ contextWindow: 100 });
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
    await pool.load();
    const long = await pool.submit(ghost('x'.repeat(1000)));
    expect(long.error).toBeInstanceOf(InputTooLongError);
    expect(long.error?.message).toMatch(/shorten/);
    expect(fake.stats.prompts).toHaveLength(0);
    expect((await pool.submit(ghost('short'))).status).toBe('done');
  });

  it('a tool message is an InvalidJobError that names it', async () => {
    const fake = createFakeBuiltInAI();
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
    await pool.load();
    const result = await pool.submit({
      params: {
        messages: [
          { role: 'tool', content: 'x' },
          { role: 'user', content: 'y' },
        ],
      },
    });
    expect(result.error?.message).toMatch(/role "tool"/);
  });
});

describe('loading: availability as the pool’s phases', () => {
  it.each([
    ['absent', { prompt: 'absent' as const }, 'absent'],
    ['unavailable', { prompt: 'unavailable' as const }, 'unavailable'],
  ])('an %s Prompt API fails the load with a BuiltInAIUnavailableError and downloads nothing', async (_name, options, reason) => {
    const fake = createFakeBuiltInAI(options);
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuiltInAIUnavailableError);
    expect(error).toMatchObject({ api: 'LanguageModel', reason });
    expect(pool.getSnapshot().phase).toBe('error');
    expect(fake.stats.downloads).toBe(0);
  });

  it('a permissions policy that blocks the API says so', async () => {
    const fake = createFakeBuiltInAI();
    const globals = { ...fake.globals, document: { featurePolicy: { allowsFeature: (f: string) => f !== 'language-model' } } };
    const error = await new EnginePool({ size: 1, createEngine: promptEngines({ globals }) }).load().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BuiltInAIUnavailableError', reason: 'blocked' });
    expect((error as Error).message).toMatch(/permissions policy.*"language-model"/);
  });

  it('a downloadable model downloads on load, its progress never going back', async () => {
    // Loaded as from a click: Chrome downloads only on a person's gesture.
    const fake = createFakeBuiltInAI({ prompt: 'downloadable', download: [0.2, 0.6, 0.4, 1], userActivation: true });
    const pool = new EnginePool({ size: 1, createEngine: promptEngines({ globals: fake.globals }) });
    expect(fake.stats.downloads).toBe(0);
    const seen: PoolLoadProgress[] = [];
    await pool.load((report) => seen.push(report));
    expect(fake.stats.downloads).toBe(1);
    const values = seen.map((r) => r.progress);
    expect(values).toEqual(values.toSorted((a, b) => a - b));
    expect(values).toContain(0.6);
    expect(values.at(-1)).toBe(1);
  });

  it("a load that must download without a person's click is refused as Chrome refuses it, and downloads nothing", async () => {
    const fake = createFakeBuiltInAI({ translation: 'downloadable' });
    const pool = new EnginePool({
      size: 1,
      createEngine: translatorEngines({ globals: fake.globals, languages: [{ from: 'en', to: 'fr' }] }),
    });
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuiltInGestureRequiredError);
    expect((error as Error).message).toMatch(/call pool\.load\(\) from the click handler/);
    expect(fake.stats.downloads).toBe(0);
    // A model already there needs no click.
    const ready = createFakeBuiltInAI();
    await new EnginePool({ size: 1, createEngine: promptEngines({ globals: ready.globals }) }).load();
  });

  it('a download with no progress fails typed within its bound; unload() settles a load at once', async () => {
    const fake = createFakeBuiltInAI({ translation: 'downloadable', download: 'never', userActivation: true });
    const languages = [{ from: 'en', to: 'fr' }];
    const stalled = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals, languages, downloadStallMs: 50 }) });
    const error = await stalled.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuiltInDownloadStalledError);
    expect((error as Error).message).toMatch(/en→fr translator made no download progress in 50 ms: check that the device is online/);
    const waiting = new EnginePool({
      size: 1,
      createEngine: translatorEngines({ globals: fake.globals, languages, downloadStallMs: Infinity }),
    });
    const loading = waiting.load().then(
      () => 'settled',
      () => 'settled',
    );
    await new Promise((r) => setTimeout(r, 20));
    await waiting.unload();
    expect(await Promise.race([loading, new Promise((r) => setTimeout(() => r('hung'), 50))])).toBe('settled');
  });

  it("a createEngine whose signal aborts rejects with the scheduler's LoadCancelledError, on the browser", async () => {
    const fake = createFakeBuiltInAI({ translation: 'downloadable', download: 'never', userActivation: true });
    const controller = new AbortController();
    const createEngine = translatorEngines({ globals: fake.globals, languages: [{ from: 'en', to: 'fr' }], downloadStallMs: Infinity });
    const loading = createEngine(0, () => {}, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const error = await loading;
    expect(error).toBeInstanceOf(LoadCancelledError);
    expect(error).toBeInstanceOf(BuiltInLoadCancelledError);
    expect(error).toMatchObject({ kind: 'cancelled', device: 'browser', retryable: true });
  });
});

describe('translatorEngines on a fake of the Translator API', () => {
  it('makes one translator per pair, reused; an unavailable pair fails only its item, naming the pair', async () => {
    const fake = createFakeBuiltInAI({ translation: (_from, to) => (to === 'xx' ? 'unavailable' : 'available') });
    const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals }) });
    await pool.load();
    const jobs = ['a', 'b', 'c'].map((text) => pool.submit({ kind: 'translation', task: 'page', params: { text, from: 'en', to: 'fr' } }));
    const bad = pool.submit({ kind: 'translation', params: { text: 'd', from: 'en', to: 'xx' } });
    const results = await Promise.all(jobs);
    expect(results.map((r: JobResult) => r.text)).toEqual(['«fr» a', '«fr» b', '«fr» c']);
    expect(fake.stats.translatorsCreated.get('en→fr')).toBe(1);
    const { error } = await bad;
    expect(error).toBeInstanceOf(UnsupportedLanguageError);
    expect(error).toMatchObject({ from: 'en', to: 'xx', reason: 'unavailable' });
    expect(error?.message).toMatch(/en→xx/);
  });

  it('detects the source language when none is given; a pair that would download is a typed error, never a download', async () => {
    const fake = createFakeBuiltInAI({ detect: () => 'de', translation: (from) => (from === 'de' ? 'available' : 'downloadable') });
    const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals }) });
    await pool.load();
    expect(await pool.submit({ kind: 'translation', params: { text: 'Hallo', to: 'fr' } })).toMatchObject({ text: '«fr» Hallo' });
    expect(fake.stats.translatorsCreated.get('de→fr')).toBe(1);
    const { error } = await pool.submit({ kind: 'translation', params: { text: 'Hi', from: 'en', to: 'fr' } });
    expect(error).toMatchObject({ name: 'UnsupportedLanguageError', reason: 'download' });
    expect(error?.message).toMatch(/list \{ from: 'en', to: 'fr' \} in "languages"/);
    expect(fake.stats.downloads).toBe(0);
  });

  it('an input over the translator’s quota is an InputTooLongError', async () => {
    const fake = createFakeBuiltInAI({ inputQuota: 10 });
    const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals }) });
    await pool.load();
    const { error } = await pool.submit({ kind: 'translation', params: { text: 'x'.repeat(100), from: 'en', to: 'fr' } });
    expect(error).toBeInstanceOf(InputTooLongError);
    expect(fake.stats.translations).toBe(0);
  });

  it('a chat job on a translator-only engine is an InvalidJobError', async () => {
    const fake = createFakeBuiltInAI();
    const pool = new EnginePool({ size: 1, createEngine: translatorEngines({ globals: fake.globals }) });
    await pool.load();
    const { error } = await pool.submit({ params: { messages: [{ role: 'user', content: 'hi' }] } });
    expect(error?.name).toBe('InvalidJobError');
    expect(error?.message).toMatch(/only translates/);
  });
});

describe('builtInEngines, detectBuiltInAI and preferBuiltIn', () => {
  it('one engine runs chats on the Prompt API and translations on the Translator API', async () => {
    const fake = createFakeBuiltInAI();
    const pool = new EnginePool({ size: 1, createEngine: builtInEngines({ globals: fake.globals }) });
    await pool.load();
    expect((await pool.submit(ghost('hi'))).text).toBe('This is a built-in reply.');
    expect((await pool.submit({ kind: 'translation', params: { text: 'hi', from: 'en', to: 'fr' } })).text).toBe('«fr» hi');
  });

  it('prefers the built-in model where it can run, and says why not where it cannot', async () => {
    const fake = createFakeBuiltInAI({ prompt: 'unavailable', translation: 'downloadable' });
    const probe = await detectBuiltInAI({ globals: fake.globals });
    expect(probe.prompt).toMatchObject({ state: 'unavailable', usable: false });
    expect(probe.translation).toMatchObject({ state: 'downloadable', usable: true });
    const forTranslation = preferBuiltIn({
      probe,
      feature: 'translation',
      builtIn: () => translatorEngines({ globals: fake.globals }),
      otherwise: cpu,
    });
    expect(forTranslation.kind).toBe('built-in');
    const forPrompt = preferBuiltIn({ probe, feature: 'prompt', builtIn: () => promptEngines(), otherwise: cpu });
    expect(forPrompt.kind).toBe('cpu');
    expect(forPrompt.reason).toMatch(/cannot run on this device.*No WebGPU/);
    expect(
      preferBuiltIn({ probe, feature: 'translation', allowDownload: false, builtIn: () => promptEngines(), otherwise: cpu }).kind,
    ).toBe('cpu');
    expect(fake.stats.downloads).toBe(0);
  });
});
