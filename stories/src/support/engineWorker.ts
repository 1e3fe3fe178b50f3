// The Web Worker of each real WebLLM engine the toolbar's "WebLLM" choice builds.
// oxlint-disable-next-line import/no-unassigned-import -- the module is the worker's entry
import '@inkling/webllm/worker';
