import { type FakeEngineFactory, type FakeEnginesOptions, fakeEngines } from '@inkling/scheduler/testing';
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { simulatedReply } from './simulatedReply.js';

/** Options of `simulatedEngines`: the fake engine's, with demo-friendly defaults. */
export interface SimulatedEnginesOptions extends FakeEnginesOptions {
  /** Time per token after the first. Default `35` ms (about 28 tokens/s, a small model on a laptop). */
  tokenMs?: number;
  /** Time to the first token. Default `150` ms. */
  prefillMs?: number;
  /** Load time per engine, reported as progress. Default `1200` ms. */
  loadMs?: number;
  /** The answer to each request. Default: `simulatedReply`, which understands Inkling's default prompts. */
  reply?: FakeEnginesOptions['reply'];
}

/**
 * The text of the conversation's last user message, after an instruction
 * line that ends in a colon ("List the action items in this note:"): what a
 * simulated object is "extracted" from.
 */
function lastUserText(request: StreamingChatCompletionRequest): string | undefined {
  const content = request.messages.findLast((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content.replace(/^[^\n]*:\s*\n/, '') : undefined;
}

/**
 * SIMULATED engines, no model and no GPU: a `createEngine` of fake engines
 * (from `@inkling/scheduler/testing`) that answer Inkling's own default
 * prompts plausibly and deterministically: ghost text continues the text
 * before the caret from a small phrase bank, translations are
 * pseudo-translations from a small dictionary (French, Spanish, German; other
 * languages marked `[Language: …]`), and structured output takes its strings
 * from the user's message (a note's own words and names). Tokens stream on timers, so scheduling,
 * supersession and preemption behave as with a real model. For stories,
 * demos and tests; say "simulated" wherever a person sees its output.
 *
 * @example
 * import { simulatedEngines } from '@inkling/react/testing';
 * const pool = new EnginePool({ createEngine: simulatedEngines({ tokenMs: 20 }), size: 2 });
 */
export function simulatedEngines(options: SimulatedEnginesOptions = {}): FakeEngineFactory {
  // An option given as `undefined` (a story control left empty) keeps its default.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return fakeEngines({
    tokenMs: 35,
    prefillMs: 150,
    loadMs: 1200,
    reply: simulatedReply,
    objectSource: lastUserText,
    model: 'simulated',
    ...given,
  });
}
