import type { ChatCompletionChunk, StoredModel } from '@inkling/scheduler';
import { type WllamaEngine, type WllamaLoadProgress, wllamaEngines, wllamaModelStorage } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

// A page of its own (a tab, as a person opens one): loads the model of `?model=` through
// wllamaEngines with the origin's storage, asks it one question, and leaves what happened in
// `window.inklingResult` for the suite's `modelPages` command (../modelPages.ts) to read.

/** What a page reports. */
export interface PageResult {
  ok: boolean;
  /** What the origin's storage held of the model when the page opened (`null`: nothing). */
  found: StoredModel | null;
  /** The error's class name and message, when the load failed. */
  error?: { name: string; message: string };
  /** The stored bytes the first progress report counted (what a resumed load starts from). */
  firstFetched?: number;
  text?: string;
}

async function run(): Promise<PageResult> {
  const model = new URL(location.href).searchParams.get('model') ?? '';
  const fetched: number[] = [];
  const found = (await wllamaModelStorage().read()).models.find((m) => m.model === model) ?? null;
  try {
    const engine = (await wllamaEngines({ model, wasmUrl, seed: 7 })(0, (p) => {
      const report = p as WllamaLoadProgress;
      if (report.phase === 'fetch' && report.loadedBytes !== undefined) fetched.push(report.loadedBytes);
    })) as WllamaEngine;
    let text = '';
    const stream = await engine.chat.completions.create({
      messages: [{ role: 'user', content: 'Write a short note about the weather.' }],
      max_tokens: 4,
      stream: true,
    });
    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) text += chunk.choices[0]?.delta.content ?? '';
    await engine.unload();
    return { ok: true, found, text, ...(fetched.length ? { firstFetched: fetched[0] } : {}) };
  } catch (error) {
    const { name, message } = error as Error;
    return { ok: false, found, error: { name, message } };
  }
}

void run().then((result) => {
  (globalThis as { inklingResult?: PageResult }).inklingResult = result;
});
