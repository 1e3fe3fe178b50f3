// The part of @wllama/wllama's `Wllama` this package drives, declared
// structurally so tests and other 3.x versions fit.

/** Options of `createChatCompletion` as Inkling calls it: streamed through `onData`. */
export type WllamaChatCall = Record<string, unknown> & {
  stream: true;
  onData: (chunk: unknown) => void;
  abortSignal?: AbortSignal;
};

/** The methods of a loaded `Wllama` Inkling calls. */
export interface WllamaLike {
  createChatCompletion(options: WllamaChatCall): Promise<unknown>;
  createEmbedding(options: { input: unknown }): Promise<unknown>;
  exit(): Promise<void>;
}
