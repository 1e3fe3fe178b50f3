// The Web Worker each WebLLM engine runs in (one per engine, so tokens never
// stream on the page's thread).
// oxlint-disable-next-line import/no-unassigned-import -- the module is the worker's entry
import '@inkling/webllm/worker';
