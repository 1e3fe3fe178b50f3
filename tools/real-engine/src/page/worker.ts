// The engine worker: exactly what @inkling/webllm ships (the bundler maps
// @mlc-ai/web-llm to the pinned 0.2.79 that the model libraries need).
// Imported for its side effect: it installs WebLLM's message handler.
// oxlint-disable-next-line import/no-unassigned-import
import '@inkling/webllm/worker';
