/**
 * MEASUREMENT PATCH, not shipped: teaches WebLLM 0.2.79 (the bundled
 * `lib/index.js` behind the `web-llm-0.2.79` alias) to keep the longest common
 * token prefix of the KV cache between two chat requests, so the prefix-reuse
 * benchmark (prefixBench.ts) can measure what such a change would win. Only
 * the bundle that `buildPrefixBench` writes carries it; no package of Inkling
 * does, and the regular benchmark bundle stays unpatched.
 *
 * What it changes, as an upstream change to `src/llm_chat.ts` and
 * `src/engine.ts` would:
 * - the pipeline records the tokens it forwards through the model (prompt
 *   chunks and decoded tokens), which are exactly what the KV cache holds;
 * - where the engine would reset the chat for a request that is not a
 *   multi-round continuation, a pipeline with `prefixReuse` on resets the
 *   conversation but keeps the KV cache;
 * - the first prefill after that tokenizes the whole prompt as usual, finds
 *   the longest common prefix with the recorded tokens (at most all but one
 *   prompt token, so the prefill still yields logits), pops the rest of the
 *   cache with TVM's `vm.builtin.kv_state_popn`, and prefills the tail alone.
 *
 * `prefixReuse` is off unless set on the pipeline, so one engine measures
 * both ways in the same run. `lastPrefilledTokens` and `lastReusedTokens`
 * say what the last prefill did, either way.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** An exact piece of WebLLM 0.2.79's bundle and what replaces it. */
interface Edit {
  readonly find: string;
  readonly replace: string;
}

const I8 = ' '.repeat(8);

const EDITS: readonly Edit[] = [
  // 1. New pipeline methods, placed before resetKVCache; resetKVCache forgets the recorded tokens.
  {
    find: `    /**\n     * Reset KV Cache\n     */\n    resetKVCache() {\n${I8}this.fclearKVCaches(this.kvCache);\n`,
    replace: `    // [inkling measurement patch] prefix reuse
    resetChatForNewPrompt() {
        if (!this.prefixReuse || this.kvTokens === undefined || this.kvTokens.length !== this.filledKVCacheLength) {
            this.resetChat();
            return;
        }
        const kept = this.kvTokens;
        this.resetChat(false, true);
        this.reusableTokens = kept;
    }
    // [inkling measurement patch] pops what the new prompt does not share, returns the tail to prefill.
    trimToUnsharedTail(inputData) {
        const old = this.reusableTokens;
        this.reusableTokens = undefined;
        if (old === undefined) return inputData;
        if (inputData.length !== 1 || !Array.isArray(inputData[0])) {
            this.resetKVCache();
            return inputData;
        }
        const tokens = inputData[0];
        const max = Math.min(old.length, tokens.length - 1);
        let n = 0;
        while (n < max && old[n] === tokens[n]) n += 1;
        if (n === 0) {
            this.resetKVCache();
            return inputData;
        }
        if (old.length > n) {
            if (this.fKVCachePopN === undefined) {
                this.fKVCachePopN = this.tvm.detachFromCurrentScope(this.tvm.getGlobalFunc("vm.builtin.kv_state_popn"));
            }
            this.fKVCachePopN(this.kvCache, new lib$2.exports.Scalar(0, "int64"), new lib$2.exports.Scalar(old.length - n, "int32"));
        }
        this.filledKVCacheLength = n;
        this.kvTokens = tokens.slice(0, n);
        this.lastReusedTokens = n;
        return [tokens.slice(n)];
    }
    /**
     * Reset KV Cache
     */
    resetKVCache() {
        this.kvTokens = [];
        this.reusableTokens = undefined;
        this.fclearKVCaches(this.kvCache);
`,
  },
  // 2. resetChat(keepStats, keepKV): the second argument skips clearing the cache (prefix reuse only).
  {
    find: `    resetChat(keepStats = false) {\n${I8}var _a;\n${I8}this.tvm.beginScope();\n${I8}this.conversation.reset();\n${I8}if (!keepStats) {\n${I8}    this.resetRuntimeStats();\n${I8}}\n${I8}this.resetKVCache();\n${I8}this.filledKVCacheLength = 0;\n`,
    replace: `    resetChat(keepStats = false, keepKV = false) {\n${I8}var _a;\n${I8}this.tvm.beginScope();\n${I8}this.conversation.reset();\n${I8}if (!keepStats) {\n${I8}    this.resetRuntimeStats();\n${I8}}\n${I8}if (!keepKV) this.resetKVCache();\n${I8}this.filledKVCacheLength = 0;\n`,
  },
  // 3. The first prefill after a kept cache prefills only the unshared tail.
  {
    find: `${I8}    const retGetInputData = this.getInputData();\n${I8}    const inputData = retGetInputData[0];\n`,
    replace: `${I8}    const retGetInputData = this.getInputData();\n${I8}    this.lastReusedTokens = 0;\n${I8}    this.tvm.beginScope();\n${I8}    const inputData = this.trimToUnsharedTail(retGetInputData[0]);\n${I8}    this.tvm.endScope();\n${I8}    this.lastPrefilledTokens = inputData.reduce((n, d) => n + (Array.isArray(d) ? d.length : 0), 0);\n`,
  },
  // 4. Record what enters the KV cache.
  {
    find: `${I8}    this.filledKVCacheLength += inputDataLen;\n`,
    replace: `${I8}    this.filledKVCacheLength += inputDataLen;\n${I8}    if (this.kvTokens !== undefined) {\n${I8}        for (const d of inputData) {\n${I8}            if (Array.isArray(d)) this.kvTokens.push(...d);\n${I8}            else { this.kvTokens = undefined; break; }\n${I8}        }\n${I8}    }\n`,
  },
];

/** The engine's two resets of a chat request that is not a continuation (the only ones the patch touches). */
const ENGINE_RESET = {
  find: `${I8}${I8}    pipeline.resetChat();\n${I8}${I8}    pipeline.setConversation(newConv);\n`,
  replace: `${I8}${I8}    pipeline.resetChatForNewPrompt();\n${I8}${I8}    pipeline.setConversation(newConv);\n`,
  count: 2,
};

/** Applies the patch to the text of WebLLM 0.2.79's `lib/index.js`; throws where the code is not the expected one. */
export function patchWebLLM(source: string): string {
  // The published bundle has CRLF line ends; the pieces below are written with LF.
  let text = source.replaceAll('\r\n', '\n');
  for (const { find, replace } of EDITS) {
    const at = text.indexOf(find);
    if (at < 0 || text.indexOf(find, at + 1) >= 0) throw new Error(`prefix-reuse patch: expected exactly one match of ${JSON.stringify(find.slice(0, 80))} in WebLLM 0.2.79's lib/index.js`);
    text = text.slice(0, at) + replace + text.slice(at + find.length);
  }
  const parts = text.split(ENGINE_RESET.find);
  if (parts.length !== ENGINE_RESET.count + 1) throw new Error(`prefix-reuse patch: expected ${ENGINE_RESET.count} chat resets in MLCEngine.prefill, found ${parts.length - 1}`);
  return parts.join(ENGINE_RESET.replace);
}

/** An esbuild plugin that loads WebLLM 0.2.79's bundle with the measurement patch applied. */
export function prefixReusePlugin(): Plugin {
  return {
    name: 'webllm-prefix-reuse-measurement-patch',
    setup(build) {
      build.onLoad({ filter: /web-llm[^/]*\/lib\/index\.js$/ }, (args) => ({
        contents: patchWebLLM(readFileSync(args.path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
