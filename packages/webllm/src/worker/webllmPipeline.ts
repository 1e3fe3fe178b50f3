/**
 * What the engine hooks (prefix reuse, the greedy pick) share to reach into
 * WebLLM: the pipeline an `MLCEngine` keeps for a loaded model, and the
 * source text their load-time guards read.
 */

/** The `LLMChatPipeline` `engine` keeps for `model`, or `undefined` where it keeps none there. */
export function pipelineOf(engine: object, model: string): unknown {
  const pipelines = (engine as { loadedModelIdToPipeline?: unknown }).loadedModelIdToPipeline;
  return pipelines instanceof Map ? (pipelines.get(model) as unknown) : undefined;
}

/**
 * A function's source without white space. The guards look in it for
 * property names only: those survive a bundler's renaming and a minifier.
 */
export const bodyOf = (fn: unknown): string => Function.prototype.toString.call(fn).replaceAll(/\s+/g, '');
