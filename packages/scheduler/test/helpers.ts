import type { ChatJobSpec } from '../src/index.js';

export { fakePool } from '../src/testing/index.js';

/** A chat job spec asking for `content`. */
export function chat(content: string, extra: Partial<ChatJobSpec> = {}): ChatJobSpec {
  return { params: { messages: [{ role: 'user', content }] }, ...extra };
}

/** Lets every pending microtask and zero-delay step run (real timers). */
export function drain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
