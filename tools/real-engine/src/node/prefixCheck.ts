/**
 * The prefix-reuse benchmark's correctness check: the same pauses replayed
 * without and with the measurement patch, reading the top log-probabilities
 * of the first generated token (the prefill's). A cache that held the wrong tokens, or the
 * right ones at the wrong positions, moves them; float noise from a
 * different chunking of the prefill moves them by far less. The spread
 * between two consecutive pauses' prompts (one keystroke apart) is printed
 * beside it, to show what a change of context does on this model.
 */
import type { MLCEngine } from '@mlc-ai/web-llm';
import { defaultGhostParams } from '../../../../packages/react/src/ghost/core/ghostPrompt.js';
import type { Pause } from '../../../../bench/ghost-prefix/typingSession.js';
import type { PatchedPipeline } from './prefixReplay.js';

interface TopLogprobs {
  readonly tokens: string[];
  readonly values: number[];
}

async function topLogprobs(engine: MLCEngine, pipeline: PatchedPipeline, pauses: readonly Pause[], on: boolean): Promise<TopLogprobs[]> {
  pipeline.prefixReuse = on;
  await engine.resetChat();
  const out: TopLogprobs[] = [];
  for (const { text, caret } of pauses) {
    const params = defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens: 3 });
    // At temperature 0 WebLLM takes the softmax at 1e-6, which leaves one token at 0 and the rest at -inf:
    // at 1 the log-probabilities are the model's own. Only the first token's (the prefill's) are compared.
    const reply = (await engine.chat.completions.create({
      ...params,
      temperature: 1,
      seed: 1,
      logprobs: true,
      top_logprobs: 5,
    } as never)) as unknown as {
      choices: Array<{ logprobs?: { content?: Array<{ token: string; top_logprobs: Array<{ token: string; logprob: number }> }> } }>;
    };
    const content = (reply.choices[0]?.logprobs?.content ?? []).slice(0, 1);
    out.push({
      tokens: content.flatMap((c) => c.top_logprobs.map((t) => t.token)),
      values: content.flatMap((c) => c.top_logprobs.map((t) => t.logprob)),
    });
  }
  return out;
}

const maxAbsDiff = (a: TopLogprobs, b: TopLogprobs) =>
  a.values.length === b.values.length && a.values.length > 0
    ? Math.max(...a.values.map((v, i) => Math.abs(v - (b.values[i] ?? Number.NaN))))
    : Number.POSITIVE_INFINITY;

/** Compares the top log-probabilities per pause without and with the patch. */
export async function checkLogprobs(engine: MLCEngine, pipeline: PatchedPipeline, pauses: readonly Pause[]) {
  const off = await topLogprobs(engine, pipeline, pauses, false);
  const on = await topLogprobs(engine, pipeline, pauses, true);
  const patchDiffs = off.map((a, i) => maxAbsDiff(a, on[i]!));
  const sameTokens = off.filter((a, i) => a.tokens.join('\u0000') === on[i]!.tokens.join('\u0000')).length;
  const keystrokeDiffs = off.slice(1).map((a, i) => maxAbsDiff(a, off[i]!));
  return {
    pauses: pauses.length,
    sameTopTokens: sameTokens,
    maxPatchDiff: Math.max(...patchDiffs),
    patchDiffs,
    keystrokeDiffs,
    sample: off[1],
  };
}
