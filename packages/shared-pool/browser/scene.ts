import type { FakeEnginesOptions } from '@inkling/scheduler/testing';

/** The pool every test tab shares. */
export const POOL_NAME = 'inkling-test';

/**
 * A small model on a laptop GPU, roughly: a load, a prefill and ~50 tokens a
 * second. The point is the shape of the scene (ghost text waits for a
 * translation to yield), not the speed.
 */
export const ENGINE: FakeEnginesOptions = {
  loadMs: 300,
  prefillMs: 120,
  tokenMs: 20,
  reply: (request) => {
    const last = String(request.messages.at(-1)?.content ?? '');
    const words = last.startsWith('translate') ? 40 : 6;
    return Array.from({ length: words }, (_, i) => `w${i}`).join(' ');
  },
};

/** Where engine builds are announced, so a page can count them across tabs and the worker. */
export const BUILDS_CHANNEL = 'inkling-test-builds';

/** Where the test tells the SharedWorker to die. */
export const CRASH_CHANNEL = 'inkling-test-crash';

/** The pool of the real-engine (wllama) tabs. */
export const WLLAMA_POOL_NAME = 'inkling-test-wllama';

/** The generated model the real-engine tabs load, written into the served folder by the test. */
export const WLLAMA_MODEL_FILE = 'inkling-chat-8m.gguf';
