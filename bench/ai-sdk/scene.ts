/**
 * Two AI SDK chats (`streamText`, what `useChat` over `DirectChatTransport`
 * runs for each turn) and ghost text on one engine. Fake engines with the
 * scheduler scene's timings (prefill 80 ms, 30 tokens/s) on a virtual clock,
 * so a run repeats exactly and measures the scheduling, not the CPU.
 *
 * Scenes: ghost text alone on the pool (idle); the two chats through
 * `createInkling` on the pool, preemptible (`providerOptions.inkling`) or with
 * the provider's defaults (high, not preemptible) on one engine, and as one
 * task on a pool that may grow to two; and the baseline, the same
 * three callers on one engine without the pool: the chats through a model that
 * calls the fake engine directly, so everyone waits in arrival order behind
 * the engine's own lock, as WebLLM does.
 */
import FakeTimers from '@sinonjs/fake-timers';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createInkling } from '@inkling/ai-sdk';
import { EnginePool } from '@inkling/scheduler';
import type { ChatCompletionRequest, Engine } from '@inkling/scheduler';
import { createFakeEngine, fakeEngines } from '@inkling/scheduler/testing';
import { streamText } from 'ai';
import { percentile, seeded } from '../shared/stats.js';

export const TIMINGS = { prefillMs: 80, tokenMs: 1000 / 30, loadMs: 3000 } as const;
export const CHAT_WORDS = 60;
const GHOST_TOKENS = 24;
const KEY_INTERVAL_MS = 125; // 8 keys/s
const SESSION_MS = 60_000;
const CHAT_THINK_MS = 400; // a person reads, then sends the next message

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
const reply = (request: ChatCompletionRequest) =>
  String(request.messages.at(-1)?.content).startsWith('ghost') ? words(32, 'g') : words(CHAT_WORDS, 'c');

export type AiSdkScene = 'idle' | 'inkling-preemptible' | 'inkling-defaults' | 'inkling-defaults-2' | 'baseline';

export const LABELS: Record<AiSdkScene, string> = {
  idle: 'idle: ghost text alone, Inkling pool, 1 engine',
  'inkling-preemptible': '2 AI SDK chats (preemptible) + ghost, Inkling pool, 1 engine',
  'inkling-defaults': '2 AI SDK chats (defaults: high) + ghost, Inkling pool, 1 engine',
  'inkling-defaults-2': '2 AI SDK chats (high, one task) + ghost, Inkling pool, up to 2 engines',
  baseline: '2 AI SDK chats + ghost, no pool (1 engine, arrival order)',
};

export interface AiSdkSceneResult {
  scene: AiSdkScene;
  seed: number;
  /** Keystroke-to-first-token of the last keystroke of each pause, ms. */
  p50Ms: number;
  p95Ms: number;
  pauses: number;
  answered: number;
  /** Chat turns that streamed to their end, both chats together. */
  chatTurns: number;
  /** Chat turns cut by ghost text (finish reason `interrupted`), sent again. */
  chatInterrupted: number;
  /** Chat text tokens streamed to the two chats per second of the session. */
  chatTokensPerSecond: number;
  engines: number;
}

/** Bursts of 3..10 keys at 8 keys/s, then a pause of 0.7..2 s, from a fixed seed. */
function typingPlan(seed: number, untilMs: number): Array<{ at: number; endsBurst: boolean }> {
  const random = seeded(seed);
  const keys: Array<{ at: number; endsBurst: boolean }> = [];
  let t = 500;
  while (t < untilMs) {
    const burst = 3 + Math.floor(random() * 8);
    for (let i = 0; i < burst; i += 1) {
      keys.push({ at: t, endsBurst: i === burst - 1 });
      t += KEY_INTERVAL_MS;
    }
    t += 700 + random() * 1300;
  }
  return keys;
}

/**
 * The baseline's model: the AI SDK's language model interface straight over
 * one engine, no scheduler (what a one-engine community provider does).
 */
export function directModel(engine: Engine): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'direct',
    modelId: 'fake',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bench only streams')),
    async doStream(options: LanguageModelV4CallOptions) {
      const messages = options.prompt.map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join(''),
      })) as ChatCompletionRequest['messages'];
      const chunks = await engine.chat.completions.create({ messages, stream: true });
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(out) {
          out.enqueue({ type: 'stream-start', warnings: [] });
          out.enqueue({ type: 'text-start', id: 't' });
          for await (const chunk of chunks) {
            const delta = chunk.choices[0]?.delta.content;
            if (delta) out.enqueue({ type: 'text-delta', id: 't', delta });
          }
          out.enqueue({ type: 'text-end', id: 't' });
          const none = { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined };
          out.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: { inputTokens: none, outputTokens: { total: undefined, text: undefined, reasoning: undefined } },
          });
          out.close();
        },
      });
      return { stream };
    },
  };
}

const oneEngine = (): number => 1;

export async function runAiSdkScene(scene: AiSdkScene, seed = 7): Promise<AiSdkSceneResult> {
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  try {
    let model: LanguageModelV4;
    let engines: () => number = oneEngine;
    let ghost: (n: number, onFirstToken: () => void) => void;
    if (scene === 'baseline') {
      const engine = createFakeEngine({ ...TIMINGS, reply });
      model = directModel(engine);
      ghost = (n, onFirstToken) => {
        void (async () => {
          const stream = await engine.chat.completions.create({
            messages: [{ role: 'user', content: `ghost ${n}` }],
            max_tokens: GHOST_TOKENS,
            stream: true,
          });
          let first = true;
          for await (const chunk of stream) {
            if (first && chunk.choices[0]?.delta.content) {
              first = false;
              onFirstToken();
            }
          }
        })();
      };
    } else {
      const createEngine = fakeEngines({ ...TIMINGS, reply });
      const pool = new EnginePool({ createEngine, size: scene === 'inkling-defaults-2' ? 2 : 1 });
      const loading = pool.load();
      await clock.tickAsync(TIMINGS.loadMs);
      await loading;
      engines = () => createEngine.engines.length;
      model = createInkling({ pool })('fake');
      ghost = (n, onFirstToken) => {
        let first = true;
        void pool.submit({
          session: 'ghost',
          priority: 'interactive',
          params: { messages: [{ role: 'user', content: `ghost ${n}` }], max_tokens: GHOST_TOKENS },
          onChunk: (chunk) => {
            if (first && chunk.choices[0]?.delta.content) {
              first = false;
              onFirstToken();
            }
          },
        });
      };
    }
    const start = Date.now();
    const running = () => Date.now() - start < SESSION_MS;
    let chatTurns = 0;
    let chatInterrupted = 0;
    let chatTokens = 0;
    const chat = async (c: number) => {
      const session = `chat-${c}`;
      const providerOptions =
        scene === 'inkling-preemptible'
          ? { inkling: { session, preemptible: true } }
          : scene === 'inkling-defaults-2'
            ? { inkling: { session, task: 'chats' } } // both chats one task: they share one engine, ghost text has the other
            : { inkling: { session } };
      for (let turn = 0; running();) {
        const result = streamText({ model, prompt: `chat ${c} turn ${turn}`, ...(scene === 'baseline' ? {} : { providerOptions }) });
        for await (const part of result.fullStream) if (part.type === 'text-delta') chatTokens += 1;
        if ((await result.finishReason) === 'interrupted') chatInterrupted += 1;
        else {
          chatTurns += 1;
          turn += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, CHAT_THINK_MS));
      }
    };
    const chats = scene === 'idle' ? [] : [chat(0), chat(1)];

    const plan = typingPlan(seed, SESSION_MS);
    const waits: number[] = [];
    let index = 0;
    const typeNext = () => {
      const key = plan[index];
      if (!key || !running()) return;
      const n = index;
      index += 1;
      const sentAt = Date.now();
      const slot = key.endsBurst ? waits.push(Number.POSITIVE_INFINITY) - 1 : -1;
      ghost(n, () => {
        if (slot >= 0) waits[slot] = Date.now() - sentAt;
      });
      const next = plan[index];
      if (next) setTimeout(typeNext, start + next.at - Date.now());
    };
    setTimeout(typeNext, plan[0]!.at);
    while (running()) await clock.tickAsync(1000);
    const state = { settled: false };
    const ended = Promise.all(chats).then(() => (state.settled = true));
    while (!state.settled) await clock.tickAsync(1000);
    await ended;
    return {
      scene,
      seed,
      p50Ms: percentile(waits, 50),
      p95Ms: percentile(waits, 95),
      pauses: waits.length,
      answered: waits.filter(Number.isFinite).length,
      chatTurns,
      chatInterrupted,
      chatTokensPerSecond: chatTokens / (SESSION_MS / 1000),
      engines: engines(),
    };
  } finally {
    clock.uninstall();
  }
}
